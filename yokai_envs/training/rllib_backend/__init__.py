"""``backend: rllib``: RLlib multi-agent PPO on Ray, from the same YAML configs as the SB3 path.

- :mod:`.env`: RLlib's ``PettingZooEnv`` over the registered AEC env; bots play inside,
  agent ids name the module (learner, frozen self-play snapshots) that plays each seat.
- :mod:`.module`: the PPO RLModule that applies the action mask.
- :mod:`.trainer`: the run (algorithm config from the YAML, self-play snapshots, evaluation
  through the arena, the same run-folder outputs as the SB3 trainer).

Needs the ``ray`` extra (``pip install 'yokai-envs[ray]'``); nothing imports this package
unless the config says ``backend: rllib``.
"""

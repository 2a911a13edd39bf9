"""``backend: rllib``: RLlib multi-agent PPO on Ray, from the same YAML configs as the SB3 path.

- :mod:`.env`: RLlib's ``PettingZooEnv`` over the registered AEC env; bots play inside,
  agent ids name the module (learner, frozen self-play snapshots) that plays each seat.
- :mod:`.module`: the PPO RLModule that applies the action mask.
- :mod:`.trainer`: the run (algorithm config from the YAML, self-play snapshots, evaluation
  through the arena, the same run-folder outputs as the SB3 trainer).
- :mod:`.bench`: env steps per second for different numbers of env runners.

Needs the ``ray`` extra (``pip install 'yokai-envs[ray]'``); nothing imports this package
unless the config says ``backend: rllib``.

On one machine::

    yokai train --config configs/yonkai_no_yokai/quick.yaml --backend rllib --set rllib.num_env_runners=2

On a cluster (every node: ``pip install 'yokai-envs[ray]'`` from the same version; the head
started with ``ray start --head``, workers with ``ray start --address HEAD:6379``), from a
node of the cluster::

    yokai train --config configs/yonkai_no_yokai/full.yaml --backend rllib \
        --set rllib.address=auto --set rllib.num_env_runners=16 --set training.n_envs=64
    yokai evaluate --game yonkai_no_yokai_v1 --agents heuristic,random --games 10000 \
        --backend ray --ray-address auto

(or ``RAY_ADDRESS=...`` in the environment). The PPO update runs in the driver; env runners
and arena tasks go wherever Ray puts them, so the run folder and any ``policy:``/``rllib:``
paths must be on a filesystem the driver (and, for the arena, every node) can read.
"""

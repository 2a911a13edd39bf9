"""OpenSpiel bots as arena agents, through the OpenSpiel bridge: ``openspiel:BOT[;options]``.

    openspiel:random                          pyspiel's uniform random bot
    openspiel:ismcts;simulations=50;uct_c=2   OpenSpiel's Python ISMCTS (random-rollout evaluator)

At each decision the bot is handed a pyspiel state of the bridge
(:mod:`yokai_envs.envs.openspiel`) whose engine is a world the deciding seat cannot tell from
the real one (:meth:`Game.determinize`), never the real engine: its cards and future draws are
resampled. (The event record comes along with the world, so another seat's
``information_state_string`` would still be that seat's real one; the two bots offered here read
only the deciding seat's.) Every random choice comes from the agent's own
seed, so a game replays exactly. Needs the ``bench`` extra (open_spiel).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import Agent

if TYPE_CHECKING:
    from yokai_envs.core.game import Game

BOTS = ("random", "ismcts")
OPTIONS: dict[str, type] = {"simulations": int, "uct_c": float}


class OpenSpielAgent(Agent):
    """Plays an OpenSpiel bot on the bridge's pyspiel game (see the module docstring)."""

    needs_game = True
    reads_observation = False

    def __init__(self, bot: str, env_id: str, env_options: dict[str, Any] | None = None, seed: int | None = None,
                 simulations: int = 50, uct_c: float = 2.0) -> None:
        if bot not in BOTS:
            raise ValueError(f"unknown OpenSpiel bot {bot!r}; valid bots: {', '.join(BOTS)}")
        try:
            from yokai_envs.envs import openspiel as bridge
        except ImportError as err:
            raise ImportError(f"openspiel:{bot} needs open_spiel: pip install 'yokai-envs[bench]' ({err})") from None
        self.bot_name = bot
        self.simulations = simulations
        self.uct_c = uct_c
        self.spiel_game = bridge.load_game(env_id, **(env_options or {}))
        super().__init__(seed)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # pyspiel's generators take 32-bit seeds, drawn from this agent's own generator.
        self._bot_seed = int(self.rng.integers(2**31 - 1))
        self._bots: dict[int, Any] = {}

    def _bot(self, seat: int) -> Any:
        if seat not in self._bots:
            import pyspiel

            if self.bot_name == "random":
                self._bots[seat] = pyspiel.make_uniform_random_bot(seat, self._bot_seed + seat)
            else:
                from open_spiel.python.algorithms import ismcts, mcts

                state = np.random.RandomState(self._bot_seed + seat)
                evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=state)
                bot = ismcts.ISMCTSBot(self.spiel_game, evaluator, uct_c=self.uct_c,
                                       max_simulations=self.simulations, random_state=state)
                # Its default resampler draws from pyspiel's unseeded sampler: use the seeded one.
                bot.set_resampler(lambda world, player: world.resample_from_infostate(player, state.uniform))
                self._bots[seat] = bot
        return self._bots[seat]

    def _recorded(self, game: Game) -> Game:
        """``game``, or a recording twin of it kept in step by replaying the actions since the
        last decision (the arena's games do not record, to save time)."""
        if game.recording:
            return game
        twin = getattr(self, "_twin", None)
        history = list(game.action_history)
        if twin is None or twin.seed != game.seed or list(twin.action_history) != history[:len(twin.action_history)]:
            twin = type(game)(**{**game.options, "max_steps": game.max_steps, "max_cycles": game.max_cycles})
            twin.record_information()
            twin.reset(game.seed)
        for action in history[len(twin.action_history):]:
            twin.step(int(action))
        self._twin = twin
        return twin

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game | None = None) -> int:
        if game is None:
            raise ValueError("openspiel agents decide from the game (needs_game); the arena hands it over")
        seat = game.current_player
        state = self.spiel_game.new_initial_state()
        # A determinization of a game that records what each seat saw: OpenSpiel's ISMCTS keys
        # its tree on the seat's information-state string, which needs that record.
        state.engine = self._recorded(game).determinize(seat, self.rng)  # the bridge's setter marks it dealt
        action = int(self._bot(seat).step(state))
        if not action_mask[action]:
            raise ValueError(f"openspiel:{self.bot_name} chose action {action}, which is not legal")
        return action

"""The information-state checks of the conformance suite, as functions (so that the toy games
in ``toys.py`` can show that each check fails on a game that breaks it).

Every function returns a list of problems (empty when the game passes); the tests assert that
the list is empty. The checks, all driven by random play with recording on:

- ``views_agree``: ``public_action`` (the int the information state records) and
  ``public_action_name`` (the text viewers show) split the legal actions the same way.
- ``twin_problems``: two histories split at another seat's decision into two actions that the
  observer sees under the same public view, sharing all later chance, stepped on in lockstep
  while they look the same to the observer: whenever the observer's information states are
  equal, its observations are equal, it is to act in both or neither, with equal masks.
  ``deal_twin_problems`` does the same for twins that differ only in hidden cards (a world
  sampled by ``determinize`` for the observer, sharing chance with the real game).
- ``recall_problems``: a seat's information state only grows (each is a prefix of the next).
- ``placement_problems``: every hidden placement a seat knows holds in every ``determinize``
  sample for that seat.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Callable

import numpy as np

from yokai_envs.core.game import Game
from yokai_envs.core.protocols import public_action_name

from .helpers import random_action

MAX_FOLLOW = 400  # lockstep steps after a split (the observer usually tells the twins apart sooner)


def legal_actions(game: Game) -> list[int]:
    return [int(a) for a in np.flatnonzero(game.legal_action_mask())]


def views_agree(game: Game) -> list[str]:
    """At the current decision, the public views and the public names group actions alike."""
    problems = []
    for seat in range(game.num_players):
        by_view: dict[object, set] = defaultdict(set)
        by_name: dict[object, set] = defaultdict(set)
        for action in legal_actions(game):
            view, name = game.public_action(action, seat), public_action_name(game, action, seat)
            if (view is None) != (name is None):
                problems.append(f"seat {seat}, action {action} ({game.action_name(action)}): public view {view!r} "
                                f"but public name {name!r}")
            by_view[view].add(name)
            by_name[name].add(view)
        problems += [f"seat {seat}: one public view {view!r} has several names {sorted(map(str, names))}"
                     for view, names in by_view.items() if len(names) > 1]
        problems += [f"seat {seat}: one public name {name!r} has several views {sorted(map(str, views))}"
                     for name, views in by_name.items() if len(views) > 1]
    return problems


def _block_of(game: Game, index: int) -> str:
    for name, block in game.observation_layout.items():
        if block.start <= index < block.stop:
            return f"{name}[{index - block.start}]"
    return f"[{index}]"


def follow_twins(first: Game, second: Game, observer: int, rng: np.random.Generator, why: str,
                 shared: int) -> list[str]:
    """Step two games in lockstep while ``observer`` cannot tell them apart; report where its
    observation, turn or mask differ although its information states are equal.

    The twins come from one game (clones, or a determinize sample of it), so the first ``shared``
    events the observer saw are common to both; its information states are equal exactly when what it saw
    since is (compared as event lists: the same test as the canonical strings, in time that does
    not grow with the length of the game; ``test_information.py`` checks the two agree)."""
    assert first.seen_events(observer)[:shared] == second.seen_events(observer)[:shared], "twins must share a past"
    for _ in range(MAX_FOLLOW):
        if first.events_since(observer, shared) != second.events_since(observer, shared):
            return []  # the seat tells them apart: anything may differ from here on
        where = f"{first.env_id} {why}, observer {observer}, step {first.steps}"
        obs_a, obs_b = first.observation(observer), second.observation(observer)
        if not np.array_equal(obs_a, obs_b):
            differ = [_block_of(first, i) for i in np.flatnonzero(obs_a != obs_b)[:6]]
            return [f"{where}: equal information states but the observations differ in {', '.join(differ)}"]
        if first.is_over != second.is_over:
            return [f"{where}: equal information states but only one game is over"]
        if first.is_over:
            return []
        acts = first.current_player == observer
        if acts != (second.current_player == observer):
            return [f"{where}: equal information states but the observer acts in only one twin"]
        if acts and not np.array_equal(first.legal_action_mask(), second.legal_action_mask()):
            return [f"{where}: equal information states but the masks differ"]
        action = random_action(first, rng)
        actor = first.current_player
        if actor == observer:
            mirror = action
        else:
            if second.current_player != actor:
                return [f"{where}: equal information states but seat {actor} decides in one twin and seat "
                        f"{second.current_player} in the other"]
            view = first.public_action(action, observer)
            same = [b for b in legal_actions(second) if second.public_action(b, observer) == view]
            if not same:
                return []  # the other twin cannot take a decision that looks the same: they part here
            mirror = same[int(rng.integers(len(same)))]
        first.step(action)
        second.step(mirror)
    return []


def recorded_game(make: Callable[[], Game], seed: int) -> Game:
    """A new game from ``make``, recording what every seat sees, dealt with ``seed``."""
    game = make()
    game.record_information()
    game.reset(seed)
    return game


def twin_points(game: Game, observer: int) -> list[tuple[int, int]]:
    """Pairs of different legal actions of the current decision that ``observer`` sees alike."""
    if game.is_over or game.current_player == observer:
        return []
    groups: dict[object, list[int]] = defaultdict(list)
    for action in legal_actions(game):
        groups[game.public_action(action, observer)].append(action)
    return [(group[0], group[-1]) for group in groups.values() if len(group) > 1]


def twin_problems(make: Callable[[], Game], seeds: range, pairs_per_game: int = 8) -> tuple[int, list[str]]:
    """(twin pairs tried, problems) over random games: split at other seats' decisions."""
    tried, problems = 0, []
    for seed in seeds:
        game = recorded_game(make, seed)
        rng = np.random.default_rng(seed + 77)
        made = 0
        while not game.is_over and made < pairs_per_game:
            observers = [s for s in range(game.num_players) if twin_points(game, s)]
            if observers and rng.random() < 0.5:
                observer = observers[int(rng.integers(len(observers)))]
                points = twin_points(game, observer)
                first_action, second_action = points[int(rng.integers(len(points)))]
                first, second = game.clone(), game.clone()
                shared = len(game.seen_events(observer))
                first.step(first_action)
                second.step(second_action)
                why = f"seed {seed}, split at step {game.steps} ({game.action_name(first_action)} / " \
                      f"{game.action_name(second_action)})"
                problems += follow_twins(first, second, observer, np.random.default_rng(seed * 31 + made), why, shared)
                tried += 1
                made += 1
            game.step(random_action(game, rng))
    return tried, problems


def deal_twin_problems(make: Callable[[], Game], seeds: range) -> tuple[int, list[str]]:
    """Twins that differ only in cards the observer cannot see: the real game and a world
    ``determinize`` samples for the observer (at the deal and mid-game), sharing later chance."""
    tried, problems = 0, []
    for seed in seeds:
        game = recorded_game(make, seed)
        rng = np.random.default_rng(seed + 99)
        for stop in (0, int(rng.integers(1, 40))):
            while game.steps < stop and not game.is_over:
                game.step(random_action(game, rng))
            if game.is_over:
                break
            observer = int(rng.integers(game.num_players))
            world = game.determinize(observer, np.random.default_rng(seed + stop))
            world.rng = copy.deepcopy(game.rng)  # share all later chance
            why = f"seed {seed}, hidden cards resampled at step {game.steps}"
            problems += follow_twins(game.clone(), world, observer, np.random.default_rng(seed + 5), why,
                                     len(game.seen_events(observer)))
            tried += 1
    return tried, problems


def recall_problems(make: Callable[[], Game], seeds: range) -> list[str]:
    problems = []
    for seed in seeds:
        game = recorded_game(make, seed)
        rng = np.random.default_rng(seed + 3)
        before = [game.information_state(s) for s in range(game.num_players)]
        while not game.is_over:
            game.step(random_action(game, rng))
            for seat in range(game.num_players):
                now = game.information_state(seat)
                grew = now.startswith(before[seat]) and (not before[seat] or len(now) == len(before[seat])
                                                         or now[len(before[seat])] == "\n")
                if not grew:
                    problems.append(f"{game.env_id} seed {seed} step {game.steps}: seat {seat}'s information state "
                                    "is not an extension of the one before")
                    return problems
                before[seat] = now
    return problems


def placement_problems(make: Callable[[], Game], seeds: range, every: int = 5,
                       samples: int = 3) -> tuple[int, list[str]]:
    """(facts checked, problems): known hidden placements hold in every determinize sample."""
    checked, problems = 0, []
    for seed in seeds:
        game = recorded_game(make, seed)
        rng = np.random.default_rng(seed + 11)
        while not game.is_over:
            if game.steps % every == 0:
                for seat in range(game.num_players):
                    facts = game.known_placements(seat)
                    for k in range(samples):
                        world = game.determinize(seat, np.random.default_rng(seed * 100 + k))
                        broken = [f for f in facts if not world.placement_holds(f)]
                        checked += len(facts)
                        if broken:
                            problems.append(f"{game.env_id} seed {seed} step {game.steps}: seat {seat} knows "
                                            f"{broken[:3]} but a determinize sample breaks it")
                            return checked, problems
            game.step(random_action(game, rng))
    return checked, problems


def views_problems(make: Callable[[], Game], seeds: range) -> list[str]:
    problems = []
    for seed in seeds:
        game = make()
        game.reset(seed)
        rng = np.random.default_rng(seed + 13)
        while not game.is_over:
            found = views_agree(game)
            if found:
                return [f"{game.env_id} seed {seed} step {game.steps} ({game.phase_name}): {p}" for p in found[:5]]
            game.step(random_action(game, rng))
    return problems

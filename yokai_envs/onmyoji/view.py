"""Text and table views of the Onmyoji table: ``render`` (text), ``table_view`` (a JSON-able
picture for viewers, see ``Game.table_view``) and ``public_action_name``.

A seat sees its own hand and its own face-down card; of another seat it sees only how many cards
are in hand and that a card was played face down, until the reveal. The face-down Yokai piles
(and the Solo Yokai deck) show what they hold in card order, never their order (R27).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from yokai_envs.core.information import Event as Seen
from yokai_envs.onmyoji.actions import N_YOKAI, NUM_ACTIONS, PLAY, TARGET_NAMES
from yokai_envs.onmyoji.cards import EDGES
from yokai_envs.onmyoji.effects import enemy_can_be_hurt, enemy_def, player_atk, player_def, player_spl
from yokai_envs.onmyoji.state import CARD_NAMES, Enemy, Event, Mode, State, Zone

if TYPE_CHECKING:
    from yokai_envs.onmyoji.game import OnmyojiGame

EDGE_ZONES = ("Attack Equips (left edge)", "Guard Equips (right edge)", "Spell Equips (bottom edge)")


def render(g: OnmyojiGame, seat: int | None) -> str:
    """Text of the table; ``seat`` hides what that seat cannot see (None: omniscient)."""
    st = g.state
    lines = []
    where = ("Final Battle" if st.final_duel else "Boss battle" if st.boss_battle
             else f"Night {st.night} battle {st.battle}")
    status = f"seat {st.decider} to decide" if not st.over else f"returns {[float(r) for r in g.returns()]}"
    lines.append(f"{g.env_id} {st.mode} Lv{st.difficulty} | {where} turn {st.turn} | {g.phase_name} | {status}")
    for s, p in enumerate(st.players):
        c = st.pool.characters[p.character]
        hidden = seat is not None and seat != s
        hand = "?" if hidden else ",".join(CARD_NAMES[i] for i in range(3) if p.hand[i])
        played = ""
        if p.played >= 0:
            played = " played " + (CARD_NAMES[p.played] if p.revealed or not hidden else "(face down)")
        lines.append(
            f"  seat {s}{' first' if st.first_seat == s else ''} {c.name}{' (evolved)' if p.evolved else ''} "
            f"HP {p.hp}{' FALLEN' if p.fallen else ''} ATK {player_atk(st, p)} DEF {player_def(st, p)} "
            f"SPL {player_spl(st, p)} | hand [{hand}] used [{','.join(CARD_NAMES[i] for i in range(3) if p.used[i])}]"
            f"{played} | Shikigami {[g.yokai_names[y] for y in p.shikigami]} "
            f"Equips {[(g.yokai_names[y], EDGES[e]) for y, e in p.equips]}")
    for slot, e in enumerate(st.enemies):
        if e is not None:
            card = st.card(e.yokai)
            lines.append(f"  {('left', 'right')[slot]}: {card.name} HP {e.hp}/{e.full_hp} DEF {card.defense} "
                         f"next ({e.next_action + 1}){' defeated' if not e.alive else ''}")
    # R27: pile and Solo deck contents are public (listed in card order), their order hidden.
    piles = "; ".join(f"Lv{lv} [{', '.join(g.yokai_names[y] for y in sorted(st.piles[lv]))}]" for lv in (1, 2, 3))
    deck = f" | Yokai deck [{', '.join(CARD_NAMES[c] for c in sorted(st.yokai_deck))}]" if st.mode == Mode.SOLO else ""
    lines.append(f"  piles (order hidden): {piles}{deck}")
    return "\n".join(lines)


def _zone(name: str, cards: list[dict[str, Any]], hidden: int = 0) -> dict[str, Any]:
    return {"name": name, "cards": cards, "hidden": int(hidden)}


def _stats(stats: tuple[int, int, int]) -> str:
    return " ".join(f"{n}+{v}" for n, v in zip(("ATK", "DEF", "SPL"), stats, strict=True) if v) or "no stats"


def _enemy_action(st: State, e: Enemy) -> str:
    actions = st.card(e.yokai).actions
    if not 0 <= e.next_action < len(actions):
        return "-"
    a = actions[e.next_action]
    if a.rest:
        return f"({e.next_action + 1}) rest"
    extra = " marked" if a.marked else ""
    return f"({e.next_action + 1}) {a.damage} damage to {a.target} Onmyoji{extra}"


def _seat(g: OnmyojiGame, s: int, seat: int | None) -> dict[str, Any]:
    st = g.state
    p = st.players[s]
    char = st.pool.characters[p.character]
    side = st.side(p)
    sees = seat is None or seat == s
    if sees:
        hand = _zone("hand", [{"name": CARD_NAMES[c]} for c in range(3) if p.hand[c]])
    else:
        hand = _zone("hand", [], sum(p.hand))
    played: list[dict[str, Any]] = []
    played_hidden = 0
    if p.played >= 0:
        if p.revealed:
            played = [{"name": CARD_NAMES[p.played], "info": "revealed"}]
        elif sees:
            played = [{"name": CARD_NAMES[p.played], "info": "face down"}]
        else:
            played_hidden = 1
    used = [{"name": CARD_NAMES[c], "info": "used"} for c in range(3) if p.used[c]]
    zones = [
        _zone("Character", [{"name": char.name,
                             "info": f"{'evolved' if p.evolved else 'normal'} side: HP {side.hp} "
                                     f"ATK {side.atk} DEF {side.defense} SPL {side.spl}; "
                                     f"evolves at Lv {char.evolve_at}"}]),
        hand, _zone("played", played, played_hidden), _zone("used", used),
    ]
    shiki = []
    for y in p.shikigami:
        sk = st.card(y).shiki
        limit = sk.per_battle or sk.per_game
        per = "battle" if sk.per_battle else "game"
        left = limit - p.shiki_uses.get(y, 0)
        shiki.append({"name": g.yokai_names[y],
                      "info": f"Lv {st.card(y).lv}, {sk.timing.replace('_', ' ')}, {left}/{limit} uses this {per}"
                              + (", used this turn" if y in p.used_this_turn else "")})
    zones.append(_zone("Shikigami", shiki))
    for edge, name in enumerate(EDGE_ZONES):
        cards = [{"name": g.yokai_names[y], "info": _stats(st.card(y).edges[edge].stats)
                  + (", has an ability" if st.card(y).edges[edge].ability is not None else "")}
                 for y, e in p.equips if e == edge]
        zones.append(_zone(name, cards))
    under = [{"name": g.yokai_names[y]} for y in range(N_YOKAI) if st.zone[y] == Zone.UNDER and st.owner[y] == s]
    zones.append(_zone("under the Character", under))
    flags = []
    if st.first_seat == s:
        flags.append("first player")
    if p.fallen:
        flags.append("fallen")
    if p.guarding:
        flags.append("guarding")
    if p.act_first:
        flags.append("acts first")
    for label, v in (("ATK up", p.atk_up), ("SPL up", p.spl_up), ("shield", p.shield), ("weakened", p.weak),
                     ("DEF used", p.def_spent)):
        if v:
            flags.append(f"{label} {v}")
    return {"seat": s, "label": f"seat {s}: {char.name}" + (" (you)" if s == seat else ""),
            "counters": {"HP": int(p.hp), "ATK": int(player_atk(st, p)), "DEF": int(player_def(st, p)),
                         "SPL": int(player_spl(st, p)), "side": "evolved" if p.evolved else "normal",
                         "cards in hand": int(sum(p.hand))},
            "zones": zones, "note": ", ".join(flags)}


def table_view(g: OnmyojiGame, seat: int | None) -> dict[str, Any]:
    st = g.state
    where = ("Final Battle" if st.final_duel else "Boss battle" if st.boss_battle
             else f"Night {st.night}, battle {st.battle}")
    enemies = []
    for slot, e in enumerate(st.enemies):
        if e is None:
            continue
        card = st.card(e.yokai)
        info = [f"{('left', 'right')[slot]}", f"HP {e.hp}/{e.full_hp}", f"DEF {enemy_def(st, e)}",
                f"next {_enemy_action(st, e)}"]
        if e.is_boss:
            info.insert(1, "Boss")
        if not e.alive:
            info.append("defeated")
        if e.stopped:
            info.append("stopped")
        if e.weak:
            info.append(f"weakened {e.weak}")
        if e.deck_card >= 0:
            info.append(f"Yokai deck: {CARD_NAMES[e.deck_card]}")
        if e.alive and e.is_boss and not enemy_can_be_hurt(st, e):
            info.append("immune")
        enemies.append({"name": card.name, "info": ", ".join(info)})
    zones = [_zone("enemies", enemies)]
    if st.pick_candidates:
        zones.append(_zone("defeated Yokai to pick", [{"name": g.yokai_names[y], "info": f"Lv {st.card(y).lv}"}
                                                      for y in st.pick_candidates]))
    if st.taking >= 0:
        zones.append(_zone("being taken (Shikigami or Equip)",
                           [{"name": g.yokai_names[st.taking], "info": f"Lv {st.card(st.taking).lv}"}]))
    # R27: what the piles and the Solo Yokai deck hold is public, their order is not: the cards are
    # listed in card order, never in draw order.
    for lv in (1, 2, 3):
        zones.append(_zone(f"Lv {lv} Yokai pile", [{"name": g.yokai_names[y], "info": "in the pile, order unknown"}
                                                   for y in sorted(st.piles[lv])]))
    if st.mode == Mode.SOLO:
        zones.append(_zone("Solo Yokai deck", [{"name": CARD_NAMES[c], "info": "not flipped yet, order unknown"}
                                               for c in sorted(st.yokai_deck)]))
    text = ""
    if st.over:
        text = f"game over; returns {[float(r) for r in g.returns()]}"
    elif seat is not None and st.decider == seat:
        text = f"your decision: {g.phase_name}"
    return {"title": f"Onmyoji ({st.mode}, Lv {st.difficulty}): {where}, turn {st.turn}",
            "phase": g.phase_name, "to_act": int(g.current_player),
            "counters": {"night": "final" if st.night > 3 else int(st.night), "battle": int(st.battle),
                         "turn": int(st.turn), "difficulty": int(st.difficulty), "mode": st.mode},
            "zones": zones, "seats": [_seat(g, s, seat) for s in range(g.num_players)], "text": text}


def public_action_name(g: OnmyojiGame, action: int, seat: int) -> str | None:
    """Everything is played face up except the action card chosen face down: only its own seat
    sees which one (another seat sees that a card was played face down)."""
    name = g.action_name(action)
    if seat == g.current_player or g.is_terminal:
        return name
    if PLAY <= action < PLAY + 3:
        return "play a card face down"
    return name


#: The public view (``public_action``) of a card played face down, as another seat sees it.
FACE_DOWN = NUM_ACTIONS


def public_action(g: OnmyojiGame, action: int, seat: int) -> int | None:
    """The int behind :func:`public_action_name`: the action itself, except a card played face
    down, which another seat sees only as ``FACE_DOWN``."""
    if seat == g.current_player or g.is_terminal:
        return action
    if PLAY <= action < PLAY + 3:
        return FACE_DOWN
    return action


_OUTCOMES = ("seat 0 wins", "seat 1 wins", "every Onmyoji loses", "the Onmyoji clear the game")


def _who(ref: int) -> str:
    return TARGET_NAMES[ref].replace("Onmyoji", "seat")


def describe_event(g: OnmyojiGame, event: Seen, seat: int) -> str:
    """One readable line for an event of ``state.Event`` (not the core's kinds)."""
    st = g.state
    k, args = Event(event[0]), event[1:]
    if k == Event.CHARACTER:
        return f"seat {args[0]} is {st.pool.characters[args[1]].name}"
    if k == Event.BATTLE:
        where = "the Final battle" if args[0] == 4 else f"Night {args[0]}, battle {args[1]}"
        return f"{where} begins; seat {args[2]} is the first player"
    if k == Event.YOKAI_OUT:
        return f"{st.card(args[1]).name} comes out on the {('left', 'right')[args[0]]}"
    if k == Event.REVEAL:
        return f"seat {args[0]} reveals {CARD_NAMES[args[1]]}"
    if k == Event.DECK_SHUFFLE:
        return "the Solo Yokai deck is shuffled"
    if k == Event.DECK_FLIP:
        return f"Yokai deck: {CARD_NAMES[args[1]]} before the {('left', 'right')[args[0]]} Yokai"
    if k == Event.YOKAI_ACTS:
        what = f"action ({args[1] + 1})" if args[2] else f"no action this turn (({args[1] + 1}) was next)"
        return f"the {('left', 'right')[args[0]]} Yokai: {what}"
    if k == Event.DAMAGE:
        return f"{_who(args[0])} loses {args[1]} HP"
    if k == Event.HEAL:
        return f"{_who(args[0])} heals {args[1]} HP"
    if k == Event.FALL:
        return f"{_who(args[0])} {'falls' if args[0] >= 2 else 'is defeated'}"
    if k == Event.TURN:
        return f"turn {args[0]}" + (f", seat {args[1]} first" if g.num_players == 2 else "")
    return f"game over: {_OUTCOMES[args[0]]}"


# ------------------------------------------------------------------ words for a new player
_CARD_TIPS = ("Attack: deal your ATK ({atk}) in damage, lessened by the target's DEF",
              "Guard: take no damage this turn",
              "Spell: deal your SPL ({spl}) in damage, which DEF does not lessen")


def action_words(g: OnmyojiGame, action: int) -> tuple[str, str]:
    """A button's label and tooltip for the seat to decide: an action card by what it does with
    that seat's stats, a target by the Yokai or Onmyoji it is (all of them are face up)."""
    from yokai_envs.onmyoji.actions import TARGET, decode

    st = g.state
    block, arg = decode(action)
    name = g.action_name(action)
    me = st.players[g.current_player]
    if block == PLAY:
        return name, _CARD_TIPS[arg].format(atk=player_atk(st, me), spl=player_spl(st, me))
    if block == TARGET:
        if arg < 2:
            e = st.enemies[arg]
            if e is None:
                return name, "Target this enemy"
            card = st.card(e.yokai)
            side = ("left", "right")[arg]
            return f"target {card.name} ({side})", f"{card.name}: HP {e.hp}/{e.full_hp}, DEF {enemy_def(st, e)}"
        p = st.players[arg - 2]
        who = st.pool.characters[p.character].name
        return f"target {who} (player {arg - 2})", f"player {arg - 2}'s {who}: HP {p.hp}, DEF {player_def(st, p)}"
    return name, name[0].upper() + name[1:]


def end_words(g: OnmyojiGame) -> dict[str, str]:
    """The rule that ended the game and each Onmyoji's HP, seats as "player N"."""
    st = g.state
    hp = ", ".join(f"player {s} {p.hp}" for s, p in enumerate(st.players))
    score = f"HP left: {hp}"
    fallen = [s for s, p in enumerate(st.players) if p.fallen or p.hp <= 0]
    fell = " and ".join(f"player {s}" for s in fallen)
    if st.mode == Mode.DUEL:
        end = g.outcome_facts()["end"]
        if end == "the Final's turn cap":
            return {"reason": "the Final Battle reached its last turn: the higher HP wins", "score": score}
        where = "in the Final Battle" if st.final_duel else "during the nights"
        return {"reason": f"{fell or 'an Onmyoji'} fell {where}", "score": score}
    if max(g.returns()) > 0:
        return {"reason": "the Boss is defeated: the Onmyoji win", "score": score}
    both = " (in Co-op, if either Onmyoji falls both lose)" if st.mode == Mode.COOP else ""
    return {"reason": f"{fell or 'an Onmyoji'} fell before the Boss was defeated, so the Yokai win{both}",
            "score": score}


#: What the new-game page and the glossary tooltips say of the game (its terms as the table shows them).
TITLE = "Onmyoji: three nights"
BLURB = ("A boss-battle card game for 1-2 (Solo, Duel, Co-op): pick Attack, Guard or Spell in secret; survive"
         " three nights.")
GLOSSARY = {
    "ATK": "Attack card damage, lessened by the target's DEF.",
    "DEF": "Lessens Attack damage taken (not Spell damage).",
    "SPL": "Spell card damage, which DEF does not lessen.",
    "HP": "At 0 the Onmyoji falls.",
    "guard": "The Guard card: safe from all damage this turn.",
    "shikigami": "A defeated Yokai kept as a helper, with an ability to use.",
    "equips": "A defeated Yokai slid under the Character's edge: its stats add to ATK, DEF or SPL.",
    "evolved": "The Character's stronger side, reached at its evolve level.",
    "night": "Three nights of battles against two Yokai each, then the Boss (or the Final Battle in a Duel).",
    "first player": "Resolves first this turn.",
    "boss": "The last battle of Solo and Co-op: defeat it to win.",
}

#: The new-game form's words for the options a player chooses (the others fold under "more options").
OPTION_WORDS = {"mode": "mode (solo: you alone; duel: against the AI; coop: with the AI)",
                "difficulty": "difficulty (Solo and Co-op)", "characters": "Character",
                "variant": "rules (book: as printed; balanced: tuned)"}

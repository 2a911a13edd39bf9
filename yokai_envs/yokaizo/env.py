"""YOKAIZO (``yokaizo_v4``): 2-player yokai TCG as a PettingZoo AEC env.

Options: ``decks="random"`` (two of the 10 ready decks drawn each reset) or ``decks=(a, b)`` with
ready-deck names, YAML deck-file paths or lists of card names; ``max_steps`` (default 6000).

Action table (fixed size ``28 + number of card types``; relative to the deciding seat)::

    0 pass / done / no          (end Void phase, forgo the Action, stop an "up to X" or "may" effect)
    1 yes                       (add Burned cards to a Basic Attack; Burn one more card)
    2 special attack   3 basic attack   4 return
    5 topdeck                   (place a Soul / replace a Banished Yokai from the top of the deck)
    6 ally pays this element    (the Ally covers one element cost of the Special Attack)
    7-8   my Field Yokai 0/1    9-10 enemy Field Yokai 0/1          (targets, whose Turn first)
    11-16 my Void card 0..5     17-22 enemy Void card 0..5          (pay costs, Freeze, Destroy...)
    23-27 Soul 0..4 of the Yokai being decided about                 (flip, Blight, Uproot)
    28+k  card type k of the pool (a card in hand, Limbo, deck or Burned, by name: copies are
          interchangeable)

Observation (float32 in [0, 1], ``env.observation_layout`` names every slice). Card slots are rows
of a feature table: 5 element one-hot, Speed/7, Souls/5, 10 faction one-hot, 23 keyword flags,
identity one-hot, hidden flag (face-down card the observer cannot see; empty = all zeros)::

    my_field, opp_field        2 card slots each (opponent's are hidden until the setup reveal)
    my_souls, opp_souls        2 Yokai x 5 Soul slots (own face-down Souls visible, enemy's hidden
                               unless announced by name as they went face-down, RULES_NOTES R33)
    my_void, opp_void          6 slots each (enemy Tokens hidden unless announced)
    known_deck_tops            top card of each deck when a Spin revealed it
    field_status               per Field Yokai: Speed/10, face-up/5, face-down/5, Shields/5,
                               Attached/4, Slowed, Blighted/5, took its Turn this Round, is acting,
                               still gets a Turn this Round
    soul_status, void_status   face-up and Blighted per Soul; Frozen and face-down per Void card
    attached_counts            per card type /3: the cards Attached to each Field Yokai
    opp_known_shield_counts    per card type /3: the enemy's Shields announced by name, per Yokai
    opp_decklist_counts        the opponent's decklist (public), per card type /3
    opp_deck_bound_counts      once the enemy's Limbo became its deck: what that deck can only hold
    *_public_*_counts          cards everyone knows to be in a hidden place: my and the enemy's
                               hand, the enemy deck, the enemy's Burned cards
    *_counts                   per card type /3: my hand, my deck, both Limbos, both Graves,
                               my Burned cards, the Exile, my Shields on each Field Yokai (the
                               owner peeks at its face-down cards; the enemy sees only counts)
    globals                    hand/deck/Limbo sizes, Grave Souls/13, Burned counts, Round, tier,
                               whether I took the last Turn, setup still hidden, enemy deck bound
    decision                   phase one-hot, am I deciding, DMG left, BREAK, picks left, unpaid
                               element costs, generic left, pair open, Ally available, the Yokai in
                               focus (damage target, Blight/Uproot Yokai), effect verb one-hot,
                               the Void position a Swap chose first

Option ``history=K`` adds the last K events a seat saw (``Event`` in ``state.py``, README table).
"""

from yokai_envs.envs.aec import YokaiAECEnv, wrap
from yokai_envs.yokaizo import ENV_ID
from yokai_envs.yokaizo.game import YokaizoGame


class raw_env(YokaiAECEnv):
    game_class = YokaizoGame
    metadata = {"name": ENV_ID, "render_modes": ["ansi", "human"], "is_parallelizable": False}


def env(**options):
    return wrap(raw_env(**options))

"""Issue 26's Onmyoji Duel analysis from per-decision data (needs the 'analysis' extra):
    yokai evaluate --game onmyoji_v5 --agents H=heuristic,R=random --games 200 --seed 0 --out runs/duel
    python examples/analysis.py runs/duel
"""
import sys

import yokai_envs
from yokai_envs.onmyoji.state import Event

df = yokai_envs.trajectories(sys.argv[1] if len(sys.argv) > 1 else "runs/duel", observation=False)
ev = df["events"].explode().dropna()  # what each seat saw since its last decision, one event a row
def newest(kind: Event, arg: int):  # the latest value of an event argument the seat has seen
    seen = ev[ev.str[0] == kind].str[arg].groupby(level=0).last().reindex(df.index)
    return seen.groupby([df["game"], df["seat"]]).ffill()
df["night"], df["turn"], df["first"] = newest(Event.BATTLE, 1), newest(Event.TURN, 1), newest(Event.BATTLE, 3)
hurt = ev[(ev.str[0] == Event.DAMAGE) & (ev.str[1] == 2 + df["seat"].reindex(ev.index))]
df["hp_lost"] = hurt.str[2].groupby(level=0).sum().reindex(df.index, fill_value=0)
df["won"] = df["return"] > 0
print("decisions by action kind (share per agent):\n", df.groupby("agent")["action_kind"].value_counts(normalize=True)
      .unstack().round(3).to_string())
print(f"\nforced decisions: {df['forced'].mean():.1%} of {len(df)}")
print("\nmean legal actions by night:\n", df.groupby("night")["legal_actions"].mean().round(2).to_string())
print("\nturns reached, by night:\n", df.groupby(["game", "night"])["turn"].max().groupby("night").mean().round(2))
print("\nHP lost per game by agent and night:\n",
      (df.groupby(["agent", "night"])["hp_lost"].sum() / df.groupby("agent")["game"].nunique()).unstack().round(2))
print("\nwin rate when first player of the first battle:\n",
      df[df["decision"] == 0].assign(first=lambda d: d["first"] == d["seat"]).groupby(["agent", "first"])["won"]
      .mean().round(3).to_string())

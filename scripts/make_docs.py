"""Generate docs/<game>.md for every registered game, and docs/README.md (the index).

    python scripts/make_docs.py                 # every registered env id, into docs/
    python scripts/make_docs.py --game yonkai_no_yokai_v1 --out /tmp/docs
    python scripts/make_docs.py --check         # exit 1 when a page in docs/ is out of date

Nothing in a game page is written by hand except the short rules summary in
docs/rules-summaries/<package>.md (when there is none, the game module's docstring is used) and,
for a game with a batched engine beside the scalar one, docs/engine-paths/<package>.md (which to use).
Everything else comes from the code and data: options and tested configurations (the Game
class), rulings (the package's RULES_NOTES.md), the observation layout table
(``observation_layout`` of a reset game, with meanings found in the observation docstrings), the
action table (``action_name`` of every action), the env, actions and observation docstrings, the card list
(the package's card data file, read by yokai_envs.play.cards) and the balance measurements (the package's
BALANCE.md, when it has one).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.resources
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from yokai_envs.play.cards import catalog  # noqa: E402
from yokai_envs.registry import ENV_IDS, env_module_name, game_class  # noqa: E402

DOCS = ROOT / "docs"
SUMMARIES = DOCS / "rules-summaries"
ENGINE_PATHS = DOCS / "engine-paths"  # hand-written: which engine to use, for games with more than one
MAX_INLINE_ACTIONS = 60
SOURCE_MODULES = ("env", "actions", "observation")


def cell(value: object) -> str:
    """Text safe inside a markdown table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ").strip()


def package_of(env_id: str) -> str:
    return env_module_name(env_id).rsplit(".", 1)[0]


def short_name(env_id: str) -> str:
    return package_of(env_id).rsplit(".", 1)[-1]


def module_docs(package: str) -> dict[str, str]:
    """name -> docstring of the game's env/actions/observation modules that exist."""
    docs = {}
    for name in SOURCE_MODULES:
        try:
            module = importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            continue
        if module.__doc__:
            docs[name] = module.__doc__.strip()
    return docs


def as_markdown(doc: str) -> str:
    """A docstring shown as is when it is markdown, in a text block when it uses reST layout."""
    rest = re.search(r"^\s*=+\s+=+\s*$", doc, re.M) or re.search(r"::\s*$", doc, re.M)
    return f"```text\n{doc}\n```" if rest else doc


def _continued(lines: list[str], index: int, min_indent: int) -> str:
    """The text of lines after ``index`` that continue an entry (indented at least ``min_indent``)."""
    more = []
    for line in lines[index + 1:]:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not stripped or indent < min_indent or stripped[0] in "-*|":
            break
        more.append(stripped)
    return " ".join(more)


def layout_meanings(docs: dict[str, str], names: list[str]) -> dict[str, str]:
    """Best effort: a meaning for each layout name from the docstrings' markdown table rows
    (``| name | ... | meaning |``), bullets naming it before a colon (``- ``name``: meaning``) or
    aligned lines (``name, other   meaning``). Names without one are left blank."""
    found: dict[str, str] = {}

    def add(name: str, text: str) -> None:
        if name in names and name not in found and text:
            found[name] = text

    for doc in docs.values():
        lines = doc.splitlines()
        for i, line in enumerate(lines):
            row = re.match(r"^\s*\|\s*`*(\w+)`*\s*\|(.*)\|\s*$", line)
            if row:
                cells = [c.strip() for c in row[2].split("|") if c.strip()]
                add(row[1], cells[-1] if cells else "")
                continue
            bullet = re.match(r"^(\s*)[-*]\s+((?:``\w+``\s*(?:,|/|and)?\s*)+):\s*(.*)$", line)
            if bullet:
                text = " ".join(filter(None, [bullet[3].strip(), _continued(lines, i, len(bullet[1]) + 1)]))
                for name in re.findall(r"``(\w+)``", bullet[2]):
                    add(name, text)
                continue
            aligned = re.match(r"^(\s+)([\w*]+(?:,\s*[\w*]+)*)(\s{2,})(\S.*)$", line)
            if aligned:
                column = len(aligned[1]) + len(aligned[2]) + len(aligned[3])
                text = " ".join(filter(None, [aligned[4].strip(), _continued(lines, i, column - 2)]))
                for name in re.split(r",\s*", aligned[2]):
                    pattern = re.compile("^" + re.escape(name).replace(r"\*", r"\w+") + "$")
                    for wanted in names:
                        if pattern.match(wanted):
                            add(wanted, text)
    return found


def options_section(cls: type) -> list[str]:
    lines = ["## Options", "", "| option | default |", "|---|---|"]
    for key, value in {**cls.OPTIONS, "max_steps": cls.DEFAULT_MAX_STEPS}.items():
        lines.append(f"| `{key}` | `{value!r}` |")
    lines += ["", "Configurations the conformance suite runs: "
              + ", ".join(f"`{config}`" for config in cls.CONFORMANCE_CONFIGS) + ".", ""]
    return lines


def layout_section(env_id: str, cls: type, docs: dict[str, str]) -> list[str]:
    lines = ["## Observation layout", "",
             "`env.observation_layout` maps each name to a slice of the observation vector "
             "(generated from the code for each tested configuration).", ""]
    seen: set[tuple] = set()
    for config in cls.CONFORMANCE_CONFIGS:
        game = cls(**config)
        game.reset(0)
        layout = game.observation_layout
        key = tuple((k, s.start, s.stop) for k, s in layout.items())
        if key in seen:
            continue
        seen.add(key)
        meanings = layout_meanings(docs, list(layout))
        lines += [f"Options `{config}`: {game.num_players} player(s), observation size {game.observation_size}, "
                  f"state size {game.state_size}.", "",
                  "| name | slice | width | meaning |", "|---|---|---:|---|"]
        for name, part in layout.items():
            lines.append(f"| `{name}` | {part.start}:{part.stop} | {part.stop - part.start} | "
                         f"{cell(meanings.get(name, ''))} |")
        lines.append("")
    return lines


def action_section(cls: type) -> list[str]:
    game = cls(**cls.CONFORMANCE_CONFIGS[0])
    game.reset(0)
    rows = [f"| {a} | {cell(game.action_name(a))} |" for a in range(game.num_actions)]
    table = ["| action | name |", "|---:|---|", *rows]
    lines = ["## Action table", "",
             f"{game.num_actions} actions, fixed for the env; names as `action_name` gives them "
             f"(options `{cls.CONFORMANCE_CONFIGS[0]}`). Only the actions of the legal mask may be taken.", ""]
    if game.num_actions > MAX_INLINE_ACTIONS:
        return [*lines, "<details><summary>all actions</summary>", "", *table, "", "</details>", ""]
    return [*lines, *table, ""]


def rulings_section(package: str) -> list[str]:
    notes = importlib.resources.files(package) / "RULES_NOTES.md"
    lines = ["## Rulings", ""]
    if not notes.is_file():
        return [*lines, "_This game has no RULES_NOTES.md yet._", ""]
    text = notes.read_text(encoding="utf-8")
    body = re.sub(r"\A#[^\n]*\n", "", text.lstrip())  # drop its own title
    body = re.sub(r"^(#+)", r"#\1", body, flags=re.M)  # its sections sit under this one
    return [*lines, f"From `{package.replace('.', '/')}/RULES_NOTES.md`:", "", body.strip(), ""]


def balance_section(package: str) -> list[str]:
    """The package's BALANCE.md (how fair its invented content measured, with the command), if any."""
    notes = importlib.resources.files(package) / "BALANCE.md"
    if not notes.is_file():
        return []
    text = notes.read_text(encoding="utf-8")
    body = re.sub(r"\A#[^\n]*\n", "", text.lstrip())  # drop its own title
    body = re.sub(r"^(#+)", r"#\1", body, flags=re.M)  # its sections sit under this one
    return ["## Balance", "", f"From `{package.replace('.', '/')}/BALANCE.md`:", "", body.strip(), ""]


def card_text(data: dict) -> str:
    if data.get("text"):
        return str(data["text"])
    rest = {k: v for k, v in data.items() if k != "name" and not isinstance(v, int | float | str | bool)}
    return yaml.safe_dump(rest, default_flow_style=True, width=10_000).strip() if rest else ""


def cards_section(env_id: str) -> list[str]:
    cards = catalog(env_id)
    if not cards:
        return []
    lines = ["## Card list", "", f"{len(cards)} cards, generated from the card data file "
             f"(`{package_of(env_id).replace('.', '/')}/cards.yaml`).", ""]
    sections: dict[str, list] = {}
    for card in cards:
        sections.setdefault(card.section, []).append(card)
    for section, members in sections.items():
        lines += [f"### {section} ({len(members)})", "",
                  "| name | kind | numbers | text / effects |", "|---|---|---|---|"]
        for card in members:
            words = {k: v for k, v in card.data.items() if isinstance(v, str) and k not in ("name", "text")}
            kind = ", ".join(f"{v}" for v in words.values()) or card.section
            lines.append(f"| **{cell(card.name)}** | {cell(kind)} | {cell(card.key_numbers())} | "
                         f"{cell(card_text(card.data))} |")
        lines.append("")
    return lines


def summary_section(package: str, docs: dict[str, str]) -> list[str]:
    path = SUMMARIES / f"{package.rsplit('.', 1)[-1]}.md"
    if path.is_file():
        return ["## Rules summary", "", path.read_text(encoding="utf-8").strip(), ""]
    game_doc = importlib.import_module(f"{package}.game").__doc__ or "(no summary yet)"
    return ["## Rules summary", "", as_markdown(game_doc.strip()), ""]


def engine_section(package: str) -> list[str]:
    path = ENGINE_PATHS / f"{package.rsplit('.', 1)[-1]}.md"
    if not path.is_file():
        return []
    return ["## Scalar or vector engine", "", path.read_text(encoding="utf-8").strip(), ""]


def game_page(env_id: str) -> str:
    cls = game_class(env_id)
    package = package_of(env_id)
    docs = module_docs(package)
    intro = docs.get("env", "").split("\n\n", 1)[0]
    lines = [f"# {env_id}", "", "<!-- generated by scripts/make_docs.py from the code and data; do not edit -->", "",
             intro, "", "```python", "import yokai_envs", f'env = yokai_envs.make("{env_id}")', "```", "",
             f"Play it: `yokai play --game {env_id} --vs heuristic`. "
             "Other pages: [getting started](getting-started.md), [all games](README.md).", ""]
    lines += summary_section(package, docs)
    lines += options_section(cls)
    lines += engine_section(package)
    lines += rulings_section(package)
    lines += layout_section(env_id, cls, docs)
    lines += action_section(cls)
    lines += cards_section(env_id)
    lines += balance_section(package)
    lines += ["## From the source", "",
              "The docstrings of the game's env, actions and observation modules, verbatim.", ""]
    for name, doc in docs.items():
        lines += [f"### `{package}.{name}`", "", as_markdown(doc), ""]
    return "\n".join(lines).rstrip() + "\n"


def index_page(env_ids: list[str]) -> str:
    lines = ["# yokai-envs documentation", "", "<!-- generated by scripts/make_docs.py; do not edit -->", "",
             "- [Getting started](getting-started.md): install, play a game yourself, watch bots, replays, "
             "evaluation and training.",
             "- [Results](results.md): the current measurements by topic, each dated, with the command that made it.",
             "- [Architecture](architecture.md): the layers and the files every game package has.",
             "- [Robustness](robustness.md): every kind of bad input (actions, options, configs, run folders, "
             "checkpoints, replays, signals) and what the package does with it, as the suite checks it.",
             "- [Play in your browser](serve.md): `yokai serve`, its page contract and its JSON API.",
             "- Design notes: [play and replay](design-notes/play.md), [training](design-notes/training.md).",
             "- [Other libraries](interop.md): PettingZoo's test kit, SuperSuit, Tianshou, AgileRL, gymnasium "
             "vector envs, OpenSpiel: what works with which game, and the command that shows it.",
             "- [Changelog](../CHANGELOG.md): env versions and the rule for bumping them.",
             "", "## Games", "",
             "| env id | page | players | options |", "|---|---|---|---|"]
    for env_id in env_ids:
        cls = game_class(env_id)
        players = sorted({cls(**config).num_players for config in cls.CONFORMANCE_CONFIGS})
        options = ", ".join(f"`{k}`" for k in cls.OPTIONS) or "—"
        lines.append(f"| `{env_id}` | [{short_name(env_id)}.md]({short_name(env_id)}.md) | "
                     f"{', '.join(map(str, players))} | {options} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=None, help="env id (repeatable; default: every one)")
    parser.add_argument("--out", type=Path, default=DOCS, help="output folder (default docs/)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page differs")
    args = parser.parse_args(argv)
    env_ids = args.game or list(ENV_IDS)
    unknown = [e for e in env_ids if e not in ENV_IDS]
    if unknown:
        print(f"make_docs: unknown env id(s) {', '.join(unknown)}; registered: {', '.join(ENV_IDS)}", file=sys.stderr)
        return 2
    pages = {f"{short_name(e)}.md": game_page(e) for e in env_ids}
    if not args.game:
        pages["README.md"] = index_page(env_ids)
    stale = []
    for name, text in pages.items():
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    if stale:
        print(f"out of date: {', '.join(stale)} (run python scripts/make_docs.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

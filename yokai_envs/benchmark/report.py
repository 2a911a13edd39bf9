"""score.json, score.md and score.tex of one run (see docs/leaderboard.md for the JSON schema)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.arena.report import tex_escape

from .suite import SELF


def _options(configuration: dict[str, Any]) -> str:
    text = ", ".join(f"{k}={v}" for k, v in configuration["env_options"].items())
    if configuration["levels"]:
        text += f", levels {'/'.join(map(str, configuration['levels']))}"
    return text


def _number(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def score_cell(c: dict[str, Any]) -> str:
    if c["score"] is None:
        return "n/a (the heuristic does no better than random here)"
    return f"{_number(c['score'])} [{_number(c['score_low'])}, {_number(c['score_high'])}]"


def _rate(row: dict[str, Any]) -> str:
    return f"{row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"


def _what(kind: str, rung: str) -> str:
    if rung == "alone":
        return "alone"
    if rung == SELF:
        return "with itself"
    return f"vs {rung}" if kind == "versus" else f"with {rung}"


def _positions(c: dict[str, Any]) -> str:
    if not c["positions"]:
        return "not measured for this suite yet"
    return ", ".join(f"{name} {_number(entry['score'])}" for name, entry in c["positions"].items())


def markdown(document: dict[str, Any]) -> str:
    res = document["result"]
    explored = any("exploitability" in c for c in res["configurations"])
    lines = [f"## yokai score: `{res['agent']}` on suite {res['suite']}", "",
             f"Protocol {res['protocol_hash'][:19]}..., yokai-envs {res['package_version']}, "
             f"{res['games_per_cell']} games per cell. Score: 0 = random, 1 = heuristic (each one's rate against "
             f"the {res['scale']['against']} rung on the same deals).", "",
             "| configuration | score [95% CI] | rate vs heuristic | random / heuristic | rung mean | fair share |"
             + (" best response |" if explored else ""),
             "|---|---|---|---|---:|---:|" + ("---|" if explored else "")]
    for c in res["configurations"]:
        rate = c["scale_rate"]
        fair = "-" if c["fair_share"] is None else f"{c['fair_share']:.3f}"
        explo = c.get("exploitability") or {}
        lines.append(f"| {c['name']} | {score_cell(c)} | {rate['agent']['rate']:.3f} "
                     f"[{rate['agent']['ci_low']:.3f}, {rate['agent']['ci_high']:.3f}] | "
                     f"{rate['random']:.3f} / {rate['heuristic']:.3f} | {c['rung_mean']:.3f} | {fair} |"
                     + (f" {explo['win_rate']:.3f} |" if "win_rate" in explo else " - |" if explored else ""))
    lines += ["", "Positions of the reference rungs on the same scale (their own scores): "]
    lines += [f"- {c['name']}: {_positions(c)}" for c in res["configurations"]]
    for c in res["configurations"]:
        explo = c.get("exploitability")
        lines += ["", f"### {c['name']} ({c['env_id']}: {_options(c)}; seed {c['seed']})", "",
                  "| rung | level | rate [95% CI over deals] | games |", "|---|---:|---|---:|"]
        lines += [f"| {_what(c['kind'], row['rung'])} | {'-' if row['level'] is None else row['level']} | "
                  f"{_rate(row)} | {row['games']} |" for row in c["rows"]]
        if explo is not None:
            lines += ["", f"Exploitability: {exploitability_text(explo)}"]
    meta = document.get("metadata", {})
    if meta:
        lines += ["", f"Played in {meta.get('wall_seconds', 0.0) / 60:.1f} min of cell time "
                      f"({meta.get('workers')} worker(s), backend {meta.get('backend')})."]
    return "\n".join(lines)


def exploitability_text(explo: dict[str, Any]) -> str:
    if "win_rate" not in explo:
        return explo.get("note", "not measured")
    return (f"a best response trained for {explo['budget']:,} steps wins {explo['win_rate']:.3f} "
            f"[{explo['ci_low']:.3f}, {explo['ci_high']:.3f}] against it ({explo['games']} games)")


def latex(document: dict[str, Any]) -> str:
    res = document["result"]
    lines = [r"\begin{table}[ht]", r"\centering",
             r"\begin{tabular}{lllr}", r"\hline",
             r"configuration & score [95\% CI] & rate vs heuristic & rung mean \\", r"\hline"]
    for c in res["configurations"]:
        rate = c["scale_rate"]["agent"]
        lines.append(f"{tex_escape(c['name'])} & {tex_escape(score_cell(c))} & {rate['rate']:.3f} "
                     f"[{rate['ci_low']:.3f}, {rate['ci_high']:.3f}] & {c['rung_mean']:.3f} \\\\")
    lines += [r"\hline", r"\end{tabular}",
              f"\\caption{{yokai score of {tex_escape(res['agent'])} on suite {tex_escape(res['suite'])} "
              f"(protocol {tex_escape(res['protocol_hash'][:19])}, yokai-envs {tex_escape(res['package_version'])}; "
              f"0 = random, 1 = heuristic)}}", r"\end{table}", ""]
    for c in res["configurations"]:
        lines += [r"\begin{table}[ht]", r"\centering", r"\begin{tabular}{lrlr}", r"\hline",
                  r"rung & level & rate [95\% CI] & games \\", r"\hline"]
        lines += [f"{tex_escape(_what(c['kind'], row['rung']))} & {'-' if row['level'] is None else row['level']} & "
                  f"{_rate(row)} & {row['games']} \\\\" for row in c["rows"]]
        lines += [r"\hline", r"\end{tabular}",
                  f"\\caption{{{tex_escape(res['agent'])} on {tex_escape(c['name'])} "
                  f"({tex_escape(c['env_id'])}; suite {tex_escape(res['suite'])})}}", r"\end{table}", ""]
    return "\n".join(lines)


def write(document: dict[str, Any], out: Path) -> list[Path]:
    from yokai_envs.training.common.safety import atomic_write_text

    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "score.md", out / "score.tex", out / "score.json"]
    atomic_write_text(paths[0], markdown(document) + "\n")
    atomic_write_text(paths[1], latex(document))
    atomic_write_text(paths[2], json.dumps(document, indent=2, sort_keys=False) + "\n")  # last: marks it finished
    return paths

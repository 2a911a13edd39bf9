"""League training: a main agent that learns against exploiters of itself, its past generations
and the bots, matched by prioritized fictitious self-play (the AlphaStar league, small).

    yokai train --config configs/onmyoji/league.yaml

Each generation ``g`` trains two networks side by side (``league.workers`` processes, or Ray
tasks with ``league.backend: ray``), each as an ordinary run folder of the SB3 trainer:

* ``gen_g/exploiter``: a main exploiter, a best response to the frozen main agent of generation
  ``g - 1`` (started as a copy of it by default: it finds that agent's holes fast). Its win rate
  against that agent is the league's running exploitability estimate.
* ``gen_g/main``: the main agent, continued from generation ``g - 1``, against the members: the
  bots, the last past generations and the last exploiters, each drawn with weight
  ``max((1 - p) ** prioritization, min_weight)`` where ``p`` is the main agent's measured win rate
  against it (a member it already beats is rarely drawn, one that beats it often).

Then the new main agent plays ``match_games`` arena games against every member (the win rates
the next generation's weights come from) and ``league.json`` records the generation. Generation
0 is ``league.start_from`` (e.g. a shipped model) or this config's own run (pretrain, PPO).

The run folder::

    league.json           the members, every generation's table, the exploiters' win rates
    gen_0/ gen_g/main/ gen_g/exploiter/   run folders of the trainer (each resumable)
    members/main_g.safetensors members/exploiter_g.safetensors   the frozen members (and
                          their cards, .json)
    model.safetensors     the last main agent; eval.json its final arena table

``--resume`` continues from the first unfinished generation; a phase that was stopped resumes
from its own checkpoint.
"""

from __future__ import annotations

import copy
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import parse_json
from yokai_envs.training.common.run import RunFolder
from yokai_envs.training.common.safety import (
    NoGuard,
    RunInterrupted,
    SignalGuard,
    atomic_copy_model,
    atomic_write_text,
    check_new_run_folder,
    clear_run_entries,
    write_marker,
)

LEAGUE_FILE = "league.json"


# ---------------------------------------------------------------------- members and weights
def member_spec(path: str, sampled: bool) -> str:
    return f"policy:{path}" + (";deterministic=false" if sampled else "")


def pfsp_weights(win_rates: dict[str, float], power: float, floor: float) -> dict[str, float]:
    """Prioritized fictitious self-play: each member's weight from the main agent's win rate
    against it (unmeasured members count as even, 0.5)."""
    return {name: max((1.0 - p) ** power, floor) for name, p in win_rates.items()}


def members_now(state: dict[str, Any], league: dict[str, Any]) -> list[dict[str, Any]]:
    """The league's members for the next generation: the bots, the last past mains, the last exploiters."""
    mains = [m for m in state["members"] if m["kind"] == "main"]
    exploiters = [m for m in state["members"] if m["kind"] == "exploiter"]
    kept = [m for m in state["members"] if m["kind"] == "bot"]
    if league["past_generations"]:
        kept += mains[-league["past_generations"]:]
    if league["exploiters_kept"]:
        kept += exploiters[-league["exploiters_kept"]:]
    return kept


def minimax_mixture(win_rates: np.ndarray, iterations: int = 20_000) -> np.ndarray:
    """The mixture over columns that maximizes its worst row: ``win_rates[r, c]`` is main agent
    ``c``'s win rate against member ``r``; the result maximizes ``min_r (win_rates @ x)_r``. Solved
    by multiplicative weights for the rows against the columns' best response (the average of
    the columns' best responses converges to a minimax strategy of this zero-sum matrix game)."""
    rows, columns = win_rates.shape
    row_weights = np.ones(rows)
    counts = np.zeros(columns)
    rate = np.sqrt(8 * np.log(max(rows, 2)) / iterations)
    for _ in range(iterations):
        attack = row_weights / row_weights.sum()
        best = int(np.argmax(attack @ win_rates))  # the main agent that does best against this attack
        counts[best] += 1
        row_weights *= np.exp(-rate * win_rates[:, best])  # rows the main agent beats lose weight
        row_weights /= row_weights.max()
    return counts / counts.sum()


def resolve_start(start: str | None, env_id: str, options: dict[str, Any],
                  where: str = "league.start_from") -> str | None:
    """``league.start_from``: a policy file, or ``pretrained`` / ``pretrained:generation=N`` (a shipped
    model of this configuration: the latest generation, or generation N); ``where`` names the
    setting in its errors (``yokai exploit --warm-start pretrained`` resolves through here too)."""
    if start is None or not (start == "pretrained" or start.startswith("pretrained:")):
        return start
    from agents.pretrained import PretrainedError, find

    generation = None
    if start != "pretrained":
        key, _, value = start.partition(":")[2].partition("=")
        if key != "generation" or not value.isdigit():
            raise ConfigError(f"{where}: {start!r}: expected pretrained or pretrained:generation=N")
        generation = int(value)
    try:
        return str(find(env_id, options, generation).path)
    except PretrainedError as err:
        raise ConfigError(f"{where}: {err}") from None


# ---------------------------------------------------------------------- one phase (a trainer run)
def run_phase(config: dict[str, Any]) -> dict[str, Any]:
    """Train one phase's run folder to its end (resuming it when it holds a checkpoint); its report.
    Runs in a worker process (or a Ray task): everything it needs is in ``config``."""
    import torch

    from yokai_envs.training.algorithms.ppo import Trainer

    torch.set_num_threads(config["training"]["torch_threads"])
    folder = RunFolder(config["output"]["dir"])
    if folder.eval.exists() and folder.load_state().get("finished"):
        return dict(parse_json(folder.eval.read_bytes(), str(folder.eval), ConfigError))
    resume = folder.resume.exists()
    trainer = Trainer(config, resume=resume, progress=False, overwrite=not resume)
    with SignalGuard() as guard:
        trainer.guard = guard
        return trainer.run()


def _phase_config(base: dict[str, Any], out: Path, steps: int, init_from: str | None,
                  opponents: list[tuple[str, float]], eval_bots: list[str], games: int,
                  deterministic: bool) -> dict[str, Any]:
    config = copy.deepcopy(base)
    config["league"]["generations"] = None
    config["output"].update(dir=str(out), progress_bar=False)
    config["training"].update(total_timesteps=steps, init_from=init_from)
    if init_from is not None:
        config["pretrain"]["imitate"] = None
    config["opponents"]["bots"] = [{"spec": s, "weight": w} for s, w in opponents]
    config["evaluation"].update(every=0, final_games=games, bots=eval_bots, best_by=eval_bots[0],
                                deterministic=deterministic, search=None, workers=1)
    return config


# ---------------------------------------------------------------------- the league
class LeagueTrainer:
    """Runs (or resumes) the league described by ``config["league"]`` in its output folder. The
    same surface as the trainer for ``yokai train``: ``run()`` returns the final report."""

    def __init__(self, config: dict[str, Any], resume: bool = False, progress: bool | None = None,
                 overwrite: bool = False) -> None:
        self.config = config
        self.league = config["league"]
        self.folder = RunFolder(config["output"]["dir"])
        self.root = self.folder.root
        self.resume = resume
        self.progress = config["output"]["progress_bar"] if progress is None else progress
        self.guard: SignalGuard = NoGuard()
        self.env_id: str = config["game"]["env_id"]
        self.options: dict[str, Any] = dict(config["game"]["options"])
        self.state_file = self.root / LEAGUE_FILE
        if resume:
            if not self.state_file.exists():
                raise ConfigError(f"--resume: {self.root} has no {LEAGUE_FILE}: not a league run, or it stopped "
                                  "before its first generation was set up; start afresh with --overwrite")
            self.state = self._load_state()
            joined = self._join_new_bots()
            if joined:
                self._say(f"{len(joined)} new fixed member(s) from league.bots: {', '.join(joined)}")
            if self.state.get("finished") and self.state["generation"] >= self.league["generations"] \
                    and self._shipped_as_configured() and not joined:
                raise ConfigError(f"--resume: the league in {self.root} already finished generation "
                                  f"{self.state['generation']}; to train on pass --set league.generations=N with a "
                                  "larger N")
            self.state["finished"] = False
        else:
            check_new_run_folder(self.root, overwrite)
            if overwrite and self.root.exists():
                clear_run_entries(self.root)
            self.state = {"generation": 0, "members": [], "generations": [], "train_seconds": 0.0,
                          "finished": False}

    # ------------------------------------------------------------------ state
    def _shipped_as_configured(self) -> bool:
        """Whether a finished league's model is what ``league.final`` asks for (resuming a finished
        league with ``--set league.final=mixture`` builds the mixture, training nothing)."""
        eval_file = self.folder.eval
        if not eval_file.exists():
            return False
        report = parse_json(eval_file.read_bytes(), str(eval_file), ConfigError)
        if report.get("final", "last") != self.league["final"]:
            return False
        # a mixture of other main agents, or against other named rows, is built again
        built = report.get("mixture", {})
        return self.league["final"] == "last" or (
            built.get("mixture_of", self.league["mixture_of"]) == self.league["mixture_of"]
            and built.get("mixture_against", []) == self.league["mixture_against"])

    def _join_new_bots(self) -> list[str]:
        """Specs the config's ``league.bots`` names that the resumed league does not hold yet join it
        as fixed members (a PSRO step: the best responses to the last mixture become members).
        Members the config no longer names stay: past generations' matchmaking counted them."""
        known = {m["name"] for m in self.state["members"]}
        joined = [spec for spec in self.league["bots"] if spec not in known]
        self.state["members"] += [{"name": spec, "kind": "bot", "generation": self.state["generation"],
                                   "path": None, "spec": spec} for spec in joined]
        return joined

    def _load_state(self) -> dict[str, Any]:
        try:
            state = parse_json(self.state_file.read_bytes(), str(self.state_file), ValueError)
        except (OSError, ValueError) as err:
            raise ConfigError(f"{self.state_file}: unreadable league state ({err})") from None
        if not isinstance(state, dict) or not {"generation", "members", "generations"} <= state.keys():
            raise ConfigError(f"{self.state_file}: not a league state")
        for member in state["members"]:
            if member["kind"] != "bot" and not Path(member["path"]).is_file():
                raise ConfigError(f"{self.state_file}: member {member['name']} is missing its file {member['path']}")
        return state

    def _save_state(self) -> None:
        with self.guard.saving():
            atomic_write_text(self.state_file, json.dumps(self.state, indent=2))

    def _say(self, text: str) -> None:
        if self.progress:
            print(f"league: {text}", flush=True)

    # ------------------------------------------------------------------ phases
    def _run_phases(self, configs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Train the phases side by side: worker processes, or Ray tasks."""
        if self.league["backend"] == "ray":
            import ray

            if not ray.is_initialized():
                address = self.config["rllib"]["address"]
                ray.init(address=address, **({} if address else {"num_cpus": self.config["rllib"]["num_cpus"]}),
                         include_dashboard=False, log_to_driver=False)
            task = ray.remote(num_cpus=1)(run_phase)
            return list(ray.get([task.remote(c) for c in configs]))
        if self.league["workers"] == 1 or len(configs) == 1:
            return [run_phase(c) for c in configs]
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # torch and forked threads do not mix
        with ProcessPoolExecutor(max_workers=min(self.league["workers"], len(configs)), mp_context=context) as pool:
            return [f.result() for f in [pool.submit(run_phase, c) for c in configs]]

    def _add_member(self, kind: str, generation: int, source: Path, suffix: str = "") -> dict[str, Any]:
        target = self.root / "members" / f"{kind}_{generation}{suffix}.safetensors"
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_copy_model(source, target)
        member = {"name": f"{kind}_{generation}{suffix}", "kind": kind, "generation": generation, "path": str(target),
                  "spec": member_spec(str(target), self.league["sampled"])}
        self.state["members"] = [m for m in self.state["members"] if m["name"] != member["name"]] + [member]
        return member

    def _generation_zero(self) -> dict[str, Any]:
        """The first main agent: league.start_from, or this config's own run in gen_0/."""
        self.state["members"] = [{"name": spec, "kind": "bot", "generation": 0, "path": None, "spec": spec}
                                 for spec in self.league["bots"]]
        start = resolve_start(self.league["start_from"], self.env_id, self.options)
        if start is not None:
            main = self._add_member("main", 0, Path(start))
            self._say(f"generation 0 is {start}")
        else:
            config = copy.deepcopy(self.config)
            config["league"]["generations"] = None
            config["output"].update(dir=str(self.root / "gen_0"), progress_bar=False)
            self._say("generation 0: this config's own run")
            report = self._run_phases([config])[0]
            self.state["train_seconds"] += float(report.get("train_seconds", 0.0))
            main = self._add_member("main", 0, RunFolder(self.root / "gen_0").model)
        table = self._measure(Path(main["path"]), members_now(self.state, self.league))
        self.state["generations"].append({"generation": 0, "main": main["name"], "table": table})
        return main

    def _measure(self, main_path: Path, members: list[dict[str, Any]]) -> dict[str, Any]:
        """The main agent's arena rows against every member (seat-balanced, duplicate deals)."""
        from yokai_envs.training.common.evaluate import evaluate_checkpoint

        others = [m["spec"] for m in members if m["path"] != str(main_path)]
        if not others:
            return {}
        rows = evaluate_checkpoint(str(main_path), self.env_id, self.options, others, self.league["match_games"],
                                   seed=self.config["training"]["seed"] + 31_337,
                                   deterministic=not self.league["sampled"], workers=self.league["workers"])
        names = {m["spec"]: m["name"] for m in members}
        return {names[spec]: {k: row[k] for k in ("win_rate", "ci_low", "ci_high", "games")}
                for spec, row in rows.items()}

    def _exploiter_folder(self, g: int, k: int) -> Path:
        """Generation ``g``'s ``k``-th exploiter's run folder (the first keeps the one-exploiter name)."""
        return self.root / f"gen_{g}" / ("exploiter" if k == 0 else f"exploiter_{k}")

    def _exploiter_configs(self, g: int, main_before: dict[str, Any]) -> list[dict[str, Any]]:
        """This generation's exploiters: best responses to the frozen ``main_before``, one per seed."""
        league = self.league
        configs = []
        start = league["exploiter_start"]
        sections: dict[str, dict[str, Any]] = {}
        if league["exploiter_config"] is not None:
            from yokai_envs.training.common.config import exploiter_sections

            sections = exploiter_sections(league["exploiter_config"])  # read once for every exploiter
        for k in range(league["exploiters"]):
            config = _phase_config(self.config, self._exploiter_folder(g, k), league["exploiter_steps"],
                                   main_before["path"] if start == "main" else None,
                                   [(main_before["spec"], 1.0)], [main_before["spec"]], league["match_games"], True)
            config.update(copy.deepcopy(sections))
            # heuristic and scratch start as `yokai exploit` does with and without --warm-start heuristic
            config["pretrain"]["imitate"] = "heuristic" if start == "heuristic" else None
            config["training"]["seed"] += 1_000 * g + 97 * k
            configs.append(config)
        return configs

    def _add_exploiters(self, g: int, main_before: dict[str, Any],
                        reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Freeze this generation's exploiters as members; their rows against ``main_before``."""
        rows = []
        for k, report in enumerate(reports):
            member = self._add_member("exploiter", g, RunFolder(self._exploiter_folder(g, k)).model,
                                      f"_{k}" if k else "")
            row = report["results"][main_before["spec"]]
            rows.append({"name": member["name"], "against": main_before["name"],
                         **{key: row[key] for key in ("win_rate", "ci_low", "ci_high", "games")}})
        return rows

    def _generation(self, g: int) -> None:
        league, previous = self.league, self.state["generations"][-1]
        main_before = next(m for m in self.state["members"] if m["name"] == previous["main"])
        exploiter_configs = self._exploiter_configs(g, main_before)
        started = time.perf_counter()
        rates = dict(previous["table"]) if previous["table"] else {}
        if league["schedule"] == "exploiters_first":
            self._say(f"generation {g}: {len(exploiter_configs)} exploiter(s) vs {main_before['name']}")
            exploiters = self._add_exploiters(g, main_before, self._run_phases(exploiter_configs))
            # the main agent's win rate against a new exploiter is what that exploiter did not win
            rates.update({row["name"]: {"win_rate": 1.0 - row["win_rate"]} for row in exploiters})
        members = members_now(self.state, league)
        win_rates = {m["name"]: rates.get(m["name"], {}).get("win_rate", 0.5) for m in members}
        weights = pfsp_weights(win_rates, league["prioritization"], league["min_weight"])
        opponents = [(m["spec"], weights[m["name"]]) for m in members]
        main_config = _phase_config(self.config, self.root / f"gen_{g}" / "main", league["main_steps"],
                                    main_before["path"], opponents, list(self.config["evaluation"]["bots"]),
                                    league["match_games"], not league["sampled"])
        self._say(f"generation {g}: main vs {', '.join(f'{n} {w:.2f}' for n, w in weights.items())}")
        if league["schedule"] == "exploiters_first":
            main_report = self._run_phases([main_config])[0]
        else:
            main_report, *reports = self._run_phases([main_config, *exploiter_configs])
            exploiters = self._add_exploiters(g, main_before, reports)
        seconds = time.perf_counter() - started
        main = self._add_member("main", g, RunFolder(self.root / f"gen_{g}" / "main").model)
        table = self._measure(Path(main["path"]), members_now(self.state, league))
        worst = max(exploiters, key=lambda row: row["win_rate"])
        self.state["generations"].append({
            "generation": g, "main": main["name"], "weights": weights, "table": table,
            "exploiter": worst, "exploiters": exploiters,
            "bots": {bot: {k: row[k] for k in ("win_rate", "ci_low", "ci_high", "games")}
                     for bot, row in main_report["results"].items()},
            "seconds": round(seconds, 1)})
        self.state["generation"] = g
        self.state["train_seconds"] += seconds
        self._say(f"generation {g} done in {seconds:.0f} s: exploiters win "
                  + ", ".join(f"{row['win_rate']:.3f}" for row in exploiters) + f" against {main_before['name']}; "
                  "main: " + ", ".join(f"{k} {v['win_rate']:.3f}" for k, v in table.items()))

    # ------------------------------------------------------------------ main
    def run(self) -> dict[str, Any]:
        self.root.mkdir(parents=True, exist_ok=True)
        write_marker(self.root, "league")
        import yaml

        atomic_write_text(self.folder.config, yaml.safe_dump(self.config, sort_keys=False))
        try:
            if not self.state["generations"]:
                self._generation_zero()
                self._save_state()
            for g in range(self.state["generation"] + 1, self.league["generations"] + 1):
                self._generation(g)
                self._save_state()
        except KeyboardInterrupt as stop:
            raise RunInterrupted(f"stopped in generation {self.state['generation'] + 1} (the finished generations "
                                 f"are saved); continue with yokai train --resume --out {self.root}",
                                 getattr(stop, "signal_number", 2)) from None
        return self._finish()

    def _mixture(self) -> dict[str, Any]:
        """The last ``mixture_of`` main agents' cross table against the exploiters and bots (and the
        ``mixture_against`` specs), and the minimax mixture of them (what ``final: mixture`` ships);
        kept in league.json."""
        mains = [m for m in self.state["members"] if m["kind"] == "main"][-self.league["mixture_of"]:]
        against = [m for m in self.state["members"] if m["kind"] in ("bot", "exploiter")]
        against += [{"name": spec, "spec": spec, "path": None} for spec in self.league["mixture_against"]
                     if spec not in {m["name"] for m in against}]
        done = self.state.get("mixture", {})
        table = {name: row for name, row in done.get("table", {}).items() if name in {m["name"] for m in mains}}
        for main in mains:
            missing = [m for m in against if m["name"] not in table.get(main["name"], {})]
            if missing:  # resumable main by main; rows added later are measured alone
                self._say(f"mixture: {main['name']} against {len(missing)} exploiters, bots and named agents")
                table[main["name"]] = {**table.get(main["name"], {}), **self._measure(Path(main["path"]), missing)}
                self.state["mixture"] = {"table": table}
                self._save_state()
        rates = np.array([[table[m["name"]][o["name"]]["win_rate"] for m in mains] for o in against])
        weights = minimax_mixture(rates)
        kept = [(m, float(w)) for m, w in zip(mains, weights, strict=True) if w >= 0.01]
        total = sum(w for _, w in kept)
        mixture = {"table": table, "members": [m["name"] for m, _ in kept],
                   "weights": [round(w / total, 4) for _, w in kept],
                   "worst_row": float((rates @ weights).min()),
                   "mixture_of": self.league["mixture_of"], "mixture_against": list(self.league["mixture_against"])}
        self.state["mixture"] = mixture
        return mixture

    def _finish(self) -> dict[str, Any]:
        from agents.model_file import mix_models
        from yokai_envs.training.common.evaluate import evaluate_checkpoint

        last = self.state["generations"][-1]
        main = next(m for m in self.state["members"] if m["name"] == last["main"])
        if self.league["final"] == "mixture":
            mixture = self._mixture()
            paths = {m["name"]: m["path"] for m in self.state["members"]}
            if len(mixture["members"]) == 1:  # one network left: itself, not a mixture of one
                atomic_copy_model(Path(paths[mixture["members"][0]]), self.folder.model)
            else:
                with self.guard.saving():
                    mix_models([paths[n] for n in mixture["members"]], mixture["weights"], self.folder.model,
                               {"play": {"deterministic": not self.league["sampled"]},
                                "mixture_members": mixture["members"]})
            self._say("ships a mixture of " + ", ".join(f"{n} {w:.2f}" for n, w in
                                                         zip(mixture["members"], mixture["weights"], strict=True)))
        else:
            atomic_copy_model(Path(main["path"]), self.folder.model)
        evaluation = self.config["evaluation"]
        started = time.perf_counter()
        results = evaluate_checkpoint(str(self.folder.model), self.env_id, self.options, list(evaluation["bots"]),
                                      evaluation["final_games"], seed=self.config["training"]["seed"] + 10_008,
                                      deterministic=not self.league["sampled"], workers=self.league["workers"])
        report = {"env_id": self.env_id, "env_options": self.options, "policy": str(self.folder.model),
                  "method": "league", "generations": self.state["generation"],
                  "timesteps": self.league["main_steps"] * self.state["generation"],
                  "train_seconds": round(self.state["train_seconds"], 1),
                  "eval_seconds": round(time.perf_counter() - started, 1),
                  "games_per_bot": evaluation["final_games"], "deterministic": not self.league["sampled"],
                  "results": results,
                  "exploiters": [g["exploiter"] for g in self.state["generations"] if "exploiter" in g],
                  "final": self.league["final"],
                  **({"mixture": {k: self.state["mixture"][k] for k in ("members", "weights", "worst_row", "mixture_of",
                                                                         "mixture_against")}}
                     if self.league["final"] == "mixture" else {})}
        atomic_write_text(self.folder.eval, json.dumps(report, indent=2))
        self.state["finished"] = True
        self._save_state()
        return report

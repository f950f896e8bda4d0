"""Tasks inside real code (the journal edition's real-world dataset, docs/datasets.md "Tasks in code
context"): loading the format, the prompts of the JavaScript adapters, the definitions run before the
call, the refusal of every other adapter, and the dataset's API rules.

The oracle's 100 % on the shared copy (12 of the 28 tasks) is the end-to-end proof: each run renders
the expected request inside the real code of the setup, extracts the call, runs it after the
task's ``const`` definitions (an interpolated ``template_url`` needs them) and judges it with the
dataset's rules (Etherscan's ``module``/``action`` in the path).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import SHARED, run_cli_in_process
from wapii_core.base.errors import InputError, WapiiError
from wapii_core.base.model import Sample, Setup

CONTEXT = SHARED / "wapiibench-context"
needs_context = pytest.mark.skipif(not (CONTEXT / "dataset.json").is_file(),
                                   reason=f"needs {CONTEXT} (set WAPII_SHARED)")


@pytest.fixture(scope="module")
def context_dataset():
    from wapii_core.datasets.loader import load_dataset_dir

    if not (CONTEXT / "dataset.json").is_file():
        pytest.skip(f"needs {CONTEXT} (set WAPII_SHARED)")
    return load_dataset_dir(CONTEXT, "wapiibench-context")


def _write(directory: Path, entries: list[dict], spec_api: str = "demo", rules: dict | None = None) -> Path:
    from wapii_core.base.paths import bundled_specs_dir

    (directory / "specs").mkdir(parents=True, exist_ok=True)
    spec = next((bundled_specs_dir() / "demo" / "specs").glob("*.yaml"))
    (directory / "specs" / f"{spec_api}.yaml").write_bytes(spec.read_bytes())
    (directory / "dataset.json").write_text(json.dumps(entries))
    if rules is not None:
        (directory / "rules.json").write_text(json.dumps(rules))
    return directory


def _entry(**extra) -> dict:
    return {"api": "demo", "task": "List the books.", "config": {"url": "https://x.test/books", "method": "get",
                                                                   "headers": {}}, **extra}


@needs_context
def test_the_context_format_loads_with_indices_per_api_and_provenance(context_dataset) -> None:
    ids = [s.id for s in context_dataset.samples]
    assert ids[:4] == ["etherscan_v1/0", "etherscan_v1/1", "etherscan_v1/2", "frankerfacez_v1/0"]
    insta = context_dataset.sample("instagram/1")
    assert insta.context.template_url == "https://api.instagram.com/v1/tags/${hashtag}/media/recent"
    assert insta.context.definitions["hashtag"] == "71abc028"
    assert insta.context.repo_name == "alexko13/block-and-frame" and insta.context.license == "MIT"
    assert context_dataset.rules["etherscan_v1"].query_in_path == ["module", "action"]
    assert "instagram" not in context_dataset.rules


def test_a_starter_code_without_the_task_slot_is_refused_naming_the_file(tmp_path: Path) -> None:
    from wapii_core.datasets.loader import load_dataset_dir

    _write(tmp_path, [_entry(starter_code="axios.")])
    with pytest.raises(InputError, match=r"dataset.json: sample 0 \(demo/0\): field 'starter_code': no '// \{task\}'"):
        load_dataset_dir(tmp_path, "x")
    _write(tmp_path, [_entry(definitions={"a": 1})])
    with pytest.raises(InputError, match="field 'definitions' needs a starter_code"):
        load_dataset_dir(tmp_path, "x")
    _write(tmp_path, [_entry(starter_code="// {task}\naxios.", definitions={"not a name": 1})])
    with pytest.raises(InputError, match="is not a JavaScript identifier"):
        load_dataset_dir(tmp_path, "x")


def test_a_bad_rules_file_is_refused_naming_it(tmp_path: Path) -> None:
    from wapii_core.datasets.loader import load_dataset_dir

    _write(tmp_path, [_entry()], rules={"demo": {"url_rewrites": [{"pattern": "(", "replacement": ""}]}})
    with pytest.raises(InputError, match=r"rules.json: dataset rules: demo.url_rewrites.0.pattern: .*not a regular expression"):
        load_dataset_dir(tmp_path, "x")
    _write(tmp_path, [_entry()], rules={"other": {"query_in_path": ["a"]}})
    with pytest.raises(InputError, match="rules.json: rules for api 'other'"):
        load_dataset_dir(tmp_path, "x")
    _write(tmp_path, [_entry()], rules={"demo": {"query_in_path": ["a"], "special": True}})
    with pytest.raises(InputError, match="rules.json: dataset rules: demo.special"):
        load_dataset_dir(tmp_path, "x")


@needs_context
@pytest.mark.parametrize("adapter", ["axios_js", "fetch_js"])
def test_prompts_continue_the_real_code_in_both_setups(context_dataset, adapter: str) -> None:
    from wapii_core.base import plugins

    made = plugins.adapters.get(adapter)()
    call = "axios." if adapter == "axios_js" else "fetch("
    sample = context_dataset.sample("instagram/1")
    full = made.prompt(sample, Setup.full, context_dataset)
    assert "// " + sample.task + "\n" in full.text and "{task}" not in full.text
    assert full.text.startswith("You are an AI programming assistant" if adapter == "axios_js" else "Below is part")
    assert "the Instagram API" in full.text and "{spec}" not in full.text
    assert full.text.endswith("if (accessToken) {\n          // " + sample.task + "\n          " + call)
    argument = made.prompt(sample, Setup.argument, context_dataset)
    opening = "get(" if adapter == "axios_js" else ""
    assert argument.starter.endswith(call + opening + "`https://api.instagram.com/v1/tags/${hashtag}/media/recent`"
                                     + ("," if adapter == "axios_js" else ""))
    with pytest.raises(WapiiError, match="only the setups full and argument"):
        made.prompt(sample, Setup.imports, context_dataset)


def test_the_fetch_extraction_skips_a_method_named_fetch() -> None:
    from wapii_fetch_js.extract import extract_call

    code = "User.where({ id: 1 }).fetch().then(() => {\n  fetch('https://x.test/a', { method: 'GET' });\n"
    found = extract_call(code)
    assert found.call.startswith("fetch('https://x.test/a'")
    assert code[found.span[0]:found.span[1]].startswith("fetch('https://x.test/a'")


@needs_context
def test_another_adapter_refuses_a_context_task_in_one_line(tmp_path: Path) -> None:
    result = run_cli_in_process("run", "--backend", "oracle", "--adapter", "requests_py", "--dataset-dir",
                                str(CONTEXT), "--out", str(tmp_path / "run"))
    assert result.returncode == 2, result
    assert result.stderr.strip().splitlines() == [
        "error: adapter 'requests_py' cannot run tasks inside JavaScript code (12 such, e.g. etherscan_v1/0); "
        "use axios_js or fetch_js"]


@pytest.mark.slow
@needs_context
def test_the_definitions_exist_when_the_call_runs(context_dataset) -> None:
    """Without the ``const`` definitions the template literal's ``${hashtag}`` is a ReferenceError."""
    from wapii_core.base import plugins

    with plugins.adapters.get("axios_js")(timeout_s=5.0) as adapter:
        sample = context_dataset.sample("instagram/1")
        call = "axios.get(`https://api.instagram.com/v1/tags/${hashtag}/media/recent`, { params: { access_token: accessToken } });\n"
        bare, defined = adapter.execute([call, adapter.with_definitions(call, sample.context.definitions)])
    assert bare.error == "runtime_error" and "hashtag" in (bare.detail or "")
    assert defined.error is None and defined.request["url"] == "https://api.instagram.com/v1/tags/71abc028/media/recent"



@pytest.mark.slow
def test_a_definition_value_cannot_break_out_of_its_literal() -> None:
    """A dataset's value that looks like code (quotes, a line break, a line separator, a closing
    comment) stays a string: the call sends it as it is and nothing of it runs."""
    from wapii_core.base import plugins

    hostile = "\"; globalThis.pwned = 1; //\n\u2028 */ `${process.exit(3)}` '"
    call = "axios.get('https://x.test/a', { params: { q: value, pwned: typeof pwned } });\n"
    with plugins.adapters.get("axios_js")(timeout_s=5.0) as adapter:
        [capture] = adapter.execute([adapter.with_definitions(call, {"value": hostile})])
    assert capture.error is None, capture.detail
    assert capture.request["params"] == {"q": hostile, "pwned": "undefined"}


@pytest.mark.slow
@needs_context
@pytest.mark.parametrize("adapter", ["axios_js", "fetch_js"])
@pytest.mark.parametrize("setup", [Setup.full, Setup.argument])
def test_the_oracle_scores_every_context_task_correct(tmp_path: Path, adapter: str, setup: Setup) -> None:
    from wapii_core.run.runner import RunConfig, run

    summary = run(RunConfig(dataset_dir=CONTEXT, adapter=adapter, backend="oracle", setup=setup), tmp_path / "run")
    results = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert len(results) == 12 == summary.judged
    assert [r["sample"] for r in results if r["verdict"] != "correct"] == []


@needs_context
def test_the_etherscan_rule_is_what_makes_its_urls_resolve(context_dataset) -> None:
    """Judged without the dataset's rules, the oracle's Etherscan request is illegal; with them, correct."""
    from wapii_core.judge.compare import judge
    from wapii_core.judge.api_rules import with_rules
    from wapii_core.openapi.index import SpecIndex

    sample: Sample = context_dataset.sample("etherscan_v1/0")
    spec = SpecIndex.load(context_dataset.specs["etherscan_v1"])
    sent = {**sample.config, "url": "https://api.etherscan.io/api/"}  # the query went to params
    assert judge(sample, spec, sent).verdict == "illegal"
    rules = context_dataset.rules["etherscan_v1"]
    for strict in (False, True):
        ruled = sample.model_copy(update={"config": with_rules(sample.config, rules, strict)})
        assert judge(ruled, spec, with_rules(sent, rules, strict), strict=strict).verdict == "correct"


@needs_context
def test_the_frankerfacez_alias_resolves_to_emoticons(context_dataset) -> None:
    from wapii_core.judge.api_rules import with_rules

    rules = context_dataset.rules["frankerfacez_v1"]
    out = with_rules({"url": "https://api.frankerfacez.com/v1/emotes?q=a"}, rules, False)
    assert out["url"] == "https://api.frankerfacez.com/v1/emoticons?q=a"
    assert with_rules({"url": "https://api.frankerfacez.com/v1/emotes/12"}, rules, False)["url"].endswith("/v1/emoticons/12")
    assert with_rules({"url": "https://api.frankerfacez.com/v1/emotesx"}, rules, False)["url"].endswith("/v1/emotesx")


def test_the_journal_mode_takes_a_one_element_list_for_its_element_outside_the_body() -> None:
    """Reference mode keeps the conference edition's ``==`` (a list of one is not its element); journal
    mode takes it in the query, headers and path, never in the body."""
    from wapii_core.datasets.loader import load_demo
    from wapii_core.judge.compare import judge
    from wapii_core.openapi.index import SpecIndex

    demo = load_demo()
    sample = next(s for s in demo.samples if s.config.get("params") and s.config["method"] == "get")
    spec = SpecIndex.load(demo.specs[sample.api])
    key, value = next((k, v) for k, v in sample.config["params"].items() if not isinstance(v, list))
    as_list = {**sample.config, "params": {**sample.config["params"], key: [value]}}
    assert judge(sample, spec, as_list).arguments["params"][key] == "incorrect_value"
    assert judge(sample, spec, as_list, journal=True).arguments["params"][key] == "correct"
    listed = sample.model_copy(update={"config": as_list})
    assert judge(listed, spec, sample.config, journal=True).arguments["params"][key] == "correct"
    two = {**sample.config, "params": {**sample.config["params"], key: [value, value]}}
    assert judge(sample, spec, two, journal=True).arguments["params"][key] == "incorrect_value"
    body = next(s for s in demo.samples if isinstance(s.config.get("data"), dict) and s.config["data"])
    name, item = next(iter(body.config["data"].items()))
    wrapped = {**body.config, "data": {**body.config["data"], name: [item]}}
    assert not isinstance(item, list)
    assert judge(body, SpecIndex.load(demo.specs[body.api]), wrapped, journal=True).arguments["data"][name] \
        == "incorrect_value"

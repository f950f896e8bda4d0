"""A dataset's declaration of what RPC-style operations do: Slack's bundled one (conversations and
messages, ``not_found`` answered as Slack answers it, ``token`` as a credential), one in a dataset
directory's ``mock/<api>.json``, and malformed ones as one-line errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mock_support import DEMO, WAPIIBENCH

SLACK = "https://slack.com/api"
BEARER = {"Authorization": "Bearer <token>"}


def _send(responder, method: str, path: str, data=None, params=None, headers=BEARER):
    from wapii_core.mock.spec_mock import config_request

    answer = responder.answer(config_request({"url": SLACK + path, "method": method, "headers": headers,
                                              "data": data, "params": params}))
    return answer.status, json.loads(answer.body) if answer.body else None


def test_slack_conversations_and_messages_through_the_bundled_declaration() -> None:
    from wapii_core.mock.spec_mock import SpecMock

    spec = WAPIIBENCH["slack"]
    if not spec.is_file():
        pytest.skip(f"needs {spec} (set WAPII_SHARED)")
    responder = SpecMock.load(spec).responder(2)
    status, created = _send(responder, "post", "/conversations.create", {"name": "apollo"})
    assert status == 200 and created["ok"] is True and created["channel"]["name"] == "apollo"
    channel = created["channel"]["id"]
    status, info = _send(responder, "get", "/conversations.info", params={"channel": channel})
    assert info["channel"] == created["channel"]
    status, posted = _send(responder, "post", "/chat.postMessage", {"channel": channel, "text": "Launch at noon"})
    assert posted["channel"] == channel and posted["message"]["text"] == "Launch at noon"
    assert posted["ts"] == posted["message"]["ts"]
    status, history = _send(responder, "get", "/conversations.history", params={"channel": channel})
    assert [m["ts"] for m in history["messages"]] == [posted["ts"]]
    status, listed = _send(responder, "get", "/conversations.list", params={"limit": 1})
    assert [c["id"] for c in listed["channels"]] == [channel]
    assert listed["response_metadata"]["next_cursor"] == ""
    assert _send(responder, "get", "/conversations.info", params={"channel": "C0NOSUCH1"}) == \
        (200, {"ok": False, "error": "channel_not_found"})
    assert _send(responder, "post", "/chat.postMessage", {"channel": "C0NOSUCH1", "text": "x"})[1]["error"] == \
        "channel_not_found"
    assert _send(responder, "get", "/conversations.list", headers={})[0] == 401
    assert _send(responder, "get", "/conversations.list", headers={"token": "xoxb-1"})[0] == 200  # Slack's token field
    state = responder.state()
    assert set(state["collections"]) == {"conversations", "messages"}
    assert state["links"]["messages"] == {posted["ts"]: {"conversations": channel}}


def test_a_dataset_directory_s_own_declaration(tmp_path: Path) -> None:
    """``mock/<api>.json`` beside ``specs/``: ``POST /books/{bookId}/reviews`` (no way to read a review
    back, so the inference leaves it stateless) declared a create of reviews, under the book."""
    from wapii_core.mock.spec_mock import SpecMock, config_request

    (tmp_path / "specs").mkdir()
    shutil.copyfile(DEMO, tmp_path / "specs" / "larchwood.yaml")
    (tmp_path / "mock").mkdir()
    (tmp_path / "mock" / "larchwood.json").write_text(json.dumps({"operations": {
        "POST /books/{bookId}/reviews": {"action": "create", "collection": "reviews"}}}))
    mock = SpecMock.load(tmp_path / "specs" / "larchwood.yaml")
    assert SpecMock.load(DEMO).steps[("/books/{bookId}/reviews", "post")].action == "other"
    responder = mock.responder()
    server, auth = "https://api.larchwood-library.example/v2", {"Authorization": "Bearer <token>"}
    book = json.loads(responder.answer(config_request({"url": f"{server}/books", "method": "post", "headers": auth,
                                                       "data": {"title": "Dune", "contributors": [{"name": "F"}]}})).body)
    review = responder.answer(config_request({"url": f"{server}/books/{book['id']}/reviews", "method": "post",
                                              "headers": auth, "data": {"rating": 5, "title": "A classic"}}))
    assert review.status == 201
    state = responder.state()
    (identifier, stored), = state["collections"]["reviews"].items()
    assert stored["rating"] == 5 and state["links"]["reviews"] == {identifier: {"books": book["id"]}}


@pytest.mark.parametrize("text, problem", [
    ("{", "not JSON: Expecting property name enclosed in double quotes at line 1 column 2"),
    ('{"operations": {"GET /books": {"action": "fly"}}}', "mock declaration: operations.GET /books.action: "
                                                          "Input should be 'create', 'read', 'update', 'delete', "
                                                          "'list' or 'other'"),
    ('{"operations": {"GET /books": {"action": "list"}}}', "mock declaration: operation 'GET /books' (list) names "
                                                           "no collection"),
    ('{"operations": {"GET /nowhere": {"action": "other"}}}', "mock declaration: the spec has no operation "
                                                              "'GET /nowhere'"),
])
def test_a_malformed_declaration_is_one_line(tmp_path: Path, text: str, problem: str) -> None:
    from support import REPO, run_cli_in_process

    declaration = tmp_path / "mock.json"
    declaration.write_text(text)
    done = run_cli_in_process("mock", str(DEMO), "--declaration", str(declaration), cwd=REPO)
    assert done.returncode == 2
    where = DEMO if "the spec has no" in problem else declaration
    assert done.stderr.strip() == f"error: {where}: {problem}"

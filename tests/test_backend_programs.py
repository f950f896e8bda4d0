"""Turning model answers into full programs: base continuations and realistic chat answers."""

from __future__ import annotations

import pytest

from wapii_core.generation.programs import (INSTRUCT_EXTRA, chat_messages, chat_program, code_of, continuation_program,
                                          cut_at_stop, is_chat_model, prefill_messages, strip_role_marker,
                                          with_extra_instructions)

HEAD = "// Get the user with ID 42 and only their name\nconst axios = require('axios');\n"
FULL = HEAD + "\naxios."
ARGUMENT = HEAD + "\naxios.get('https://api.example.com/users/42',"
IMPORT = HEAD
CALL = "axios.get('https://api.example.com/users/42', {\n  params: { fields: 'name' }\n});\n"


def test_a_base_completion_is_cut_after_the_stop_string_like_the_benchmark():
    completion = "get('https://api.example.com/users/42');\n```\n\nMore text\n```\n"
    assert continuation_program(FULL, completion) == FULL + "get('https://api.example.com/users/42');\n```"
    assert continuation_program(FULL, "get('u');") == FULL + "get('u');"
    assert continuation_program(FULL, "get('u');\n```\nrest", stop=None) == FULL + "get('u');\n```\nrest"
    assert cut_at_stop("a\n```\nb") == ("a\n```\n", True)
    assert cut_at_stop("a\n```") == ("a\n```", False)


CHAT_CASES = {
    "fenced call only (gpt-4o style)": (
        FULL, f"```javascript\n{CALL}```",
        FULL + CALL.removeprefix("axios.")),
    "repeats the whole starter": (
        FULL, f"```javascript\n{FULL}get('https://api.example.com/users/42');\n```",
        FULL + "get('https://api.example.com/users/42');\n"),
    "prose around the code, import setup": (
        IMPORT, f"Sure! Here's how you can do it:\n\n```js\nconst axios = require('axios');\n\n{CALL}```\n\n"
                "This sends a GET request to the users endpoint.",
        IMPORT + "\n" + CALL),
    "role marker without fences": (
        FULL, "### Response:\naxios.delete('https://api.example.com/users/42');",
        FULL + "delete('https://api.example.com/users/42');"),
    "argument setup, the call restated": (
        ARGUMENT, f"```javascript\n{CALL}```",
        ARGUMENT + " {\n  params: { fields: 'name' }\n});\n"),
    "argument setup, the call rewritten with other quotes": (
        ARGUMENT, "```javascript\naxios.get(\"https://api.example.com/users/42\", { params: { fields: \"name\" } });\n```",
        HEAD + "\naxios.get(\"https://api.example.com/users/42\", { params: { fields: \"name\" } });\n"),
    "a bare continuation": (
        FULL, "get('https://api.example.com/users/42');",
        FULL + "get('https://api.example.com/users/42');"),
    "several blocks, the axios one second": (
        FULL, "First install it:\n```bash\nnpm install axios\n```\nThen:\n```javascript\n" + CALL + "```",
        FULL + CALL.removeprefix("axios.")),
    "chat-template assistant marker": (
        FULL, "<|assistant|>\n```javascript\n" + CALL + "```",
        FULL + CALL.removeprefix("axios.")),
    "a fence cut off by the token limit": (
        FULL, "```javascript\nconst axios = require('axios');\n\naxios.get('https://api.example.com/users/4",
        FULL + "get('https://api.example.com/users/4"),
    "axios named in the prose first": (
        FULL, "You can use axios.get for this:\n```javascript\n" + CALL + "```",
        FULL + CALL.removeprefix("axios.")),
    "indented call inside a function": (
        IMPORT, "```javascript\nasync function main() {\n  const res = await axios.get('https://x.test/a');\n}\n```",
        IMPORT + "axios.get('https://x.test/a');\n}\n"),
    "a refusal": (
        FULL, "I'm sorry, I can't help with that.",
        FULL + "I'm sorry, I can't help with that."),
}


@pytest.mark.parametrize("case", sorted(CHAT_CASES))
def test_a_chat_answer_becomes_the_starter_continued(case):
    starter, answer, expected = CHAT_CASES[case]
    program = chat_program(starter, answer, "axios.")
    assert program == expected
    assert program.startswith(starter[: starter.rindex("\n") + 1])


def test_an_empty_starter_keeps_the_answers_code():
    assert chat_program("", 'Here you go:\n```json\n{"samples": []}\n```\nDone.') == '{"samples": []}\n'
    assert chat_program("", '{"samples": []}') == '{"samples": []}'


def test_role_markers_and_fences():
    assert strip_role_marker("Assistant: axios.get('u')") == "axios.get('u')"
    assert strip_role_marker("  ### Response\naxios.") == "axios."
    assert strip_role_marker("<|im_start|>assistant\nhi") == "hi"
    assert strip_role_marker("The answer: 42") == "The answer: 42"  # only at the very start, as a marker
    assert code_of("no fences here") == "no fences here"
    assert code_of("```\nx = 1\n```\n```js\naxios.get()\n```", "axios.") == "axios.get()\n"
    assert code_of("```\nx = 1\n```\n```js\naxios.get()\n```") == "x = 1\n"  # no call start: the first block


# Every adapter says what its calls start with, so a chat answer that writes its own call is read
# the same way whichever library it targets.
PYTHON_FULL = "# Get a.\nimport requests\nrequests."
FETCH_ARGUMENT = "// Get a.\nfetch('https://x.test/a'"
AIOHTTP_FULL = "import aiohttp\nasync with aiohttp.ClientSession() as session:\n    async with session."


@pytest.mark.parametrize("starter, call_start, answer, expected", [
    (PYTHON_FULL, "requests.", "Use this:\n```python\nimport json\nr = requests.get('https://x.test/a')\n```",
     "# Get a.\nimport requests\nrequests.get('https://x.test/a')\n"),
    (FETCH_ARGUMENT, "fetch(", "```js\nconst r = await fetch(\"https://x.test/a\", {method: 'POST'});\n```",
     "// Get a.\nfetch(\"https://x.test/a\", {method: 'POST'});\n"),
    (AIOHTTP_FULL, "async with session.",
     "```python\nasync with aiohttp.ClientSession() as s:\n  async with session.post('https://x.test/a') as r:\n"
     "    print(r.status)\n```",
     "import aiohttp\nasync with aiohttp.ClientSession() as session:\n"
     "    async with session.post('https://x.test/a') as r:\n    print(r.status)\n"),
])
def test_the_adapters_call_start_finds_the_answers_own_call(starter, call_start, answer, expected):
    assert chat_program(starter, answer, call_start) == expected


@pytest.mark.parametrize("name, chat", [
    ("deepseek-ai/deepseek-coder-33b-instruct", True), ("Qwen/Qwen2.5-Coder-7B-Instruct", True),
    ("gpt-4o-mini", True), ("openai/gpt-4o", True), ("o3-mini", True), ("google/gemini-pro-1.5", True),
    ("meta-llama/Llama-2-13b-chat-hf", True), ("Qwen/Qwen2.5-Coder-1.5B", False), ("bigcode/starcoder2-3b", False),
    ("wapii-tiny", False), ("deepseek-ai/deepseek-coder-6.7b-base", False), (None, False),
])
def test_chat_auto_rule(name, chat):
    assert is_chat_model(name) is chat


def test_chat_messages_split_off_the_first_sentence():
    text = "You are an assistant. Do this. Then that.\n\n```javascript\n" + FULL
    assert chat_messages(text, "split") == [
        {"role": "system", "content": "You are an assistant."},
        {"role": "user", "content": "Do this. Then that.\n\n```javascript\n" + FULL}]
    assert chat_messages(text, "none") == [{"role": "user", "content": text}]
    assert chat_messages("No sentence end", "split") == [{"role": "user", "content": "No sentence end"}]


# Answers SmolLM2-135M-Instruct gave to WAPIIBench prompts through its chat template (no prefill):
# 165 of 184 were a bare fence and 19 a fence and a newline. Both are an empty code block.
@pytest.mark.parametrize("answer", ["```", "```\n", "```javascript", "```javascript\n", "  ```\n```"])
def test_a_bare_fence_is_an_empty_block_whatever_follows_it(answer):
    assert code_of(answer, "axios.") == ""
    assert chat_program(FULL, answer, "axios.") == FULL


def test_the_instruct_instruction_goes_where_the_template_puts_extra_instructions():
    benchmark = "Your next task is about the Slack Web API. Complete the following code snippet:\n\n```javascript\n"
    assert with_extra_instructions(benchmark) == benchmark.replace("snippet:", "snippet without any explanations:")
    demo = "Write one call.\n\nComplete the program:\n\n```python\n"
    assert with_extra_instructions(demo) == demo.replace("program:", f"program{INSTRUCT_EXTRA}:")
    assert with_extra_instructions("no colon here\n") == "no colon here\n"


def test_prefilled_messages_begin_the_answer_with_the_code_block_and_the_starter():
    instructions = "You write API calls. Complete the following code snippet:\n\n```javascript\n"
    messages = prefill_messages(instructions + FULL, FULL)
    assert messages == [
        {"role": "user", "content": "You write API calls. Complete the following code snippet without any explanations:"},
        {"role": "assistant", "content": "```javascript\n" + FULL}]
    split = prefill_messages(instructions + FULL, FULL, system="split")
    assert [m["role"] for m in split] == ["system", "user", "assistant"]

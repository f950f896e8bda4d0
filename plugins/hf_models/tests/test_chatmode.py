"""chat=auto for local models: decided by how the tokenizer's chat template ends a turn."""

from __future__ import annotations

import json

from wapii_hf_models.chatmode import is_chat_directory

CHATML = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + "
          "'<|im_end|>' + '\\n'}}{% endfor %}")


def saved(directory, template: str | None, eos_id: int):
    tokens = [{"id": 0, "content": "<|endoftext|>"}, {"id": 1, "content": "<|im_start|>"},
              {"id": 2, "content": "<|im_end|>"}]
    (directory / "tokenizer.json").write_text(json.dumps({"added_tokens": tokens}))
    (directory / "tokenizer_config.json").write_text(json.dumps({"eos_token": tokens[eos_id]["content"]}))
    (directory / "generation_config.json").write_text(json.dumps({"eos_token_id": eos_id}))
    if template is not None:
        (directory / "chat_template.jinja").write_text(template)
    return directory


def test_an_instruct_model_ends_its_turns_with_its_end_token(tmp_path):
    assert is_chat_directory(saved(tmp_path, CHATML, eos_id=2))


def test_a_base_model_with_a_chat_template_is_not_a_chat_model(tmp_path):
    # SmolLM2 and Qwen2.5 base models ship ChatML templates but end with <|endoftext|>
    assert not is_chat_directory(saved(tmp_path, CHATML, eos_id=0))


def test_no_template_no_chat(tmp_path):
    assert not is_chat_directory(saved(tmp_path, None, eos_id=2))


def test_wapii_tiny_is_a_base_model(tiny_dir):
    # its template closes turns with the plain end-of-text token
    assert not is_chat_directory(tiny_dir)

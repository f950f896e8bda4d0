"""Decoding multipart bodies as sent (``wapii_core.judge.wire_bodies``): what a server reads, and the limits
that keep the judge's time on one body bounded (the body comes from the program)."""

from __future__ import annotations

from wapii_core.judge.wire_bodies import MAX_PART_HEADERS, MAX_PARTS, decode_body

BOUNDARY = "----formdata-undici-012345678901"
TYPE = f"multipart/form-data; boundary={BOUNDARY}"


def _part(name: str, value: str, extra: str = "") -> bytes:
    return f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"{extra}\r\n\r\n{value}\r\n'.encode()


def _body(*parts: bytes) -> bytes:
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def test_parts_are_read_by_name_in_order_with_repeated_names_as_lists() -> None:
    body = _body(_part("a", "1"), _part("b", "x\r\ny"), _part("a", "2"), _part("f", "file text", '; filename="f.txt"'))
    assert decode_body(body, TYPE) == {"a": ["1", "2"], "b": "x\r\ny", "f": "file text"}


def test_a_quoted_boundary_and_a_part_without_a_name() -> None:
    unnamed = f"--{BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nv\r\n".encode()
    assert decode_body(_body(unnamed, _part("a", "1")), f'multipart/form-data; boundary="{BOUNDARY}"') == {"a": "1"}


def test_a_body_that_ends_inside_a_part_is_kept_as_text() -> None:
    body = _part("a", "1") + f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=".encode()
    assert decode_body(body, TYPE) == body.decode()


def test_a_body_of_more_parts_than_a_server_reads_is_kept_as_text() -> None:
    assert isinstance(decode_body(_body(*[_part("a", "1")] * MAX_PARTS), TYPE), dict)
    over = _body(*[_part("a", "1")] * (MAX_PARTS + 1))
    assert decode_body(over, TYPE) == over.decode()


def test_part_headers_over_the_budget_are_kept_as_text() -> None:
    params = '; x="y"' * (MAX_PART_HEADERS // 7)  # parameters cost the parser more than linear time
    body = _body(_part("a", "1", params))
    assert decode_body(body, TYPE) == body.decode()
    many = _body(*[_part("a", "1", '; x="y"' * 20)] * (MAX_PART_HEADERS // 150 + 1))
    assert decode_body(many, TYPE) == many.decode()

import json

from steward.masking import MASK, Masker


def test_masks_raw_json_escaped_and_repr_forms() -> None:
    secret = 'pa"ss\\wörd'
    masker = Masker([secret])
    assert masker.text(f"x {secret} y") == f"x {MASK} y"
    assert secret not in masker.text(json.dumps({"v": secret}))
    assert json.dumps(secret)[1:-1] not in masker.text(json.dumps({"v": secret}))
    assert repr(secret)[1:-1] not in masker.text(repr({"v": secret}))


def test_longer_secret_is_replaced_whole_before_a_shorter_one_inside_it() -> None:
    masker = Masker(["abc", "xxabcxx"])
    assert masker.text("1 xxabcxx 2 abc") == f"1 {MASK} 2 {MASK}"


def test_multiline_secret_is_masked_line_by_line_too() -> None:
    key = "-----BEGIN KEY-----\nAAAABBBBCCCCDDDD\nEEEEFFFFGGGGHHHH\n-----END KEY-----"
    masked = Masker([key]).text("line: EEEEFFFFGGGGHHHH\n")
    assert "EEEEFFFFGGGGHHHH" not in masked


def test_data_masks_nested_values_and_keys() -> None:
    masker = Masker(["hunter22"])
    data = {"res": {"stdout_lines": ["a hunter22 b"], "hunter22": 1}, "n": 3}
    assert masker.data(data) == {"res": {"stdout_lines": [f"a {MASK} b"], MASK: 1}, "n": 3}


def test_without_secrets_text_is_untouched() -> None:
    masker = Masker(["", ""])
    assert not masker
    assert masker.text("a b c") == "a b c"

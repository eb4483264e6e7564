"""Every loader of outside input, fuzzed: config and scenario files, API bodies and sensor
payloads answer with what is wrong, never with a traceback.

Bounded in the suite; a longer run:
`FUZZ_EXAMPLES=20000 ./dev test tests/referee/test_loaders_fuzzed.py`.
"""

from __future__ import annotations

import contextlib
import json
import os

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from local_table import LocalPort

from companion import config
from companion.dashboard.api import api_blueprint
from companion.referee.inputs import fact_from_message
from companion.scenario.load import parse_scenario
from companion.schema import CodecError
from companion.yamlfile import YamlError, load_yaml

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])
DEEP = 5000


def load_scenario_text(text: str, file: str) -> object:
    return parse_scenario(load_yaml(text, file))


NASTY = ["[" * DEEP + "]" * DEEP, "{a: " * DEEP + "1" + "}" * DEEP, "9" * 5000,
         "mqtt: {url: 'mqtt://[::1'}", "mqtt: {url: 'mqtt://h:99999'}", "\x00\x01", "&a [*a]",
         "a: &x [*x]", "players: " + "[" * 2000 + "]" * 2000, "--- !!python/object:os.system {}"]
texts = st.one_of(st.sampled_from(NASTY), st.text(max_size=300),
                  st.recursive(st.one_of(st.integers(), st.text(max_size=8), st.none()),
                               lambda c: st.lists(c, max_size=4)
                               | st.dictionaries(st.text(max_size=6), c, max_size=4),
                               max_leaves=30).map(json.dumps))


@pytest.mark.parametrize("load", [config.parse, load_scenario_text], ids=["config", "scenario"])
@pytest.mark.parametrize("text", NASTY)
def test_nasty_files_get_a_sentence(load, text):
    with pytest.raises(YamlError, match=r"^nasty\.yaml"):
        load(text, "nasty.yaml")


@FUZZ
@given(texts)
def test_config_and_scenario_loaders_never_raise_anything_else(text):
    for load in (config.parse, load_scenario_text):
        try:
            load(text, "fuzz.yaml")
        except YamlError as e:
            assert str(e).startswith("fuzz.yaml"), e


@FUZZ
@given(st.one_of(texts.map(str.encode), st.binary(max_size=300)))
def test_sensor_payloads_are_facts_or_codec_errors(payload):
    for topic in ("cashnguns/t/gun/2/aim", "cashnguns/t/standee/3/posture", "cashnguns/t/hub/seen"):
        with contextlib.suppress(CodecError):
            fact_from_message(topic, payload)


@pytest.fixture(scope="module")
def client():
    app = Flask(__name__)
    app.secret_key = "fuzz"
    app.register_blueprint(api_blueprint(LocalPort().table))
    return app.test_client()


@FUZZ
@given(body=st.one_of(texts.map(str.encode), st.binary(max_size=300),
                      st.sampled_from([b"[" * 100_000, b"9" * 5000, b"{" * 70_000])))
def test_api_bodies_get_a_status_and_a_sentence(client, body):
    r = client.post("/api/command", data=body,
                    headers={"X-Table-Pin": "2468", "Content-Type": "application/json"})
    assert r.status_code in (400, 403, 404, 409, 413, 422), r.status_code
    assert isinstance(r.get_json()["error"], str)

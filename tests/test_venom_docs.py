"""docs/systems/venom.md documents every action, with examples that the system accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tableside.core.systems import get_system
from tableside.core.systems.venom import SYSTEM

DOC = Path(__file__).resolve().parent.parent / "docs" / "systems" / "venom.md"
BODIES = [json.loads(m) for m in re.findall(r"-d '(\{.*?\})'", DOC.read_text(encoding="utf-8"))]


def test_every_action_type_is_documented_with_an_example_request():
    text = DOC.read_text(encoding="utf-8")
    documented = {b["type"] for b in BODIES if "type" in b}
    for action_type in SYSTEM.actions:
        assert f"`{action_type}`" in text, f"{action_type} is not described in {DOC.name}"
        assert action_type in documented, f"{action_type} has no example request in {DOC.name}"


def test_every_documented_example_passes_validate_action():
    actions = [b for b in BODIES if "type" in b]
    assert len(actions) >= len(SYSTEM.actions)
    for body in actions:
        SYSTEM.validate_action(body)


def test_the_documented_session_options_are_valid():
    (create,) = [b for b in BODIES if "system" in b]
    assert create["system"] == "venom"
    SYSTEM.validate_options(create["options"])


def test_every_button_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for binding in SYSTEM.bindings:
        row = f"| {'hold ' if binding.hold else ''}{binding.button} |"
        assert row in text, f"button row {row!r} missing"


def test_every_action_spec_example_is_valid_and_the_registry_finds_the_system():
    assert get_system("venom") is not None and get_system("venom").id == "venom"
    for spec in SYSTEM.actions.values():
        SYSTEM.validate_action({"type": spec.type, **spec.example})

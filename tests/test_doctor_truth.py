"""``tableside doctor`` tells the truth (issue 32): the fitted board's own pins, the real import error.

The 13.3" Impression is inky's own ``inky_el133uf1.Inky`` (inky 2.6.0 from PyPI, as installed), whose
constructor claims nothing; its chip selects are ``CS0_PIN = 26`` and ``CS1_PIN = 16`` in that module.
"""

from __future__ import annotations

import sys

from inky.inky_el133uf1 import Inky as EL133UF1

from tableside.config import load_config
from tableside.doctor_live import check_inky


def config(tmp_path, text):
    path = tmp_path / "tableside.toml"
    path.write_text(text)
    return load_config(str(path))


def test_the_13_inch_board_is_checked_against_its_own_chip_selects(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules["inky.auto"], "auto", lambda *a, **k: EL133UF1(resolution=(1600, 1200)))
    clash = check_inky(config(tmp_path, "[buttons]\npins = {C = 16}\n"))
    assert not clash.ok
    assert "C = GPIO16 is also the Inky Impression 13.3" in clash.text and "second SPI chip select" in clash.text
    assert clash.fix == "set [buttons] pins C = 25"
    led = check_inky(config(tmp_path, "[led]\npin = 26\n"))
    assert not led.ok and "[led] pin = GPIO26" in led.text and "SPI chip select" in led.text
    fine = check_inky(config(tmp_path, "[led]\npin = 13\n"))
    assert fine.ok and "Inky Impression 13.3" in fine.text


def test_numpy_failing_to_import_is_shown_as_itself_not_as_inky_missing(monkeypatch):
    for name in [m for m in sys.modules if m == "inky" or m.startswith("inky.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy raises ImportError, as a broken numpy does
    said = check_inky(None)
    assert not said.ok and "not installed" not in said.text
    assert said.text.startswith("the inky library is installed but fails to import: ModuleNotFoundError:")
    assert "numpy" in said.text and "--force-reinstall" in said.fix

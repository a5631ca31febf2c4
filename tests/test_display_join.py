"""The join screen: a QR code that decodes to the join link, the URL and code readable, never loopback."""

from __future__ import annotations

import pytest
import zxingcpp
from tableside.display.join import JoinInfo
from tableside.display.panels import PANELS, get_panel
from tableside.display.quantize import to_panel_image
from tableside.display.render import render_join

JOIN = JoinInfo("http://192.168.178.23:8080", "K7QX4M")


@pytest.mark.parametrize("panel_id", sorted(PANELS))
def test_the_join_qr_decodes_to_the_join_link_on_every_panel(panel_id):
    panel = get_panel(panel_id)
    image = to_panel_image(render_join(panel, JOIN, "No game yet: start one on the phone panel"), panel)
    assert image.size == panel.size
    found = zxingcpp.read_barcodes(image.convert("L"))
    assert [r.text for r in found] == ["http://192.168.178.23:8080/join?code=K7QX4M"]


def test_a_long_hostname_link_still_decodes_on_the_smallest_panel():
    join = JoinInfo("http://tableside-kitchen-table.local:8080", "ABCDEF")
    panel = get_panel("phat-red")
    found = zxingcpp.read_barcodes(to_panel_image(render_join(panel, join), panel).convert("L"))
    assert [r.text for r in found] == [join.link]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080",
        "http://127.0.1.1:8080",
        "http://localhost:8080",
        "http://[::1]:8080",
        "ftp://192.168.1.2",
        "192.168.1.2:8080",
        "http://" + "a" * 300,
    ],
)
def test_join_links_a_phone_cannot_open_are_refused(url):
    with pytest.raises(ValueError):
        JoinInfo(url, "ABC")


def test_the_code_is_quoted_in_the_link_and_the_url_shown_without_scheme():
    join = JoinInfo("http://tableside.local:8080/", "A B&C")
    assert join.link == "http://tableside.local:8080/join?code=A%20B%26C"
    assert join.display_url == "tableside.local:8080"

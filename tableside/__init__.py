"""The composition root: the ``tableside`` command wires core, device, display and webui."""

"""The golden scenarios, one module per game system (named as its folder): ``OPTIONS`` to start a session
with and ``ACTIONS``, documented actions with typed-in faces, played in order (tests/golden_states.py)."""

"""Smart dice read over Bluetooth Low Energy (Pixels, GoDice) or simulated.

Nothing here imports bleak or godice at module level: ``tableside serve`` imports
this package only when ``[dice] kind`` asks for smart dice, and the Bluetooth
backends (``ble.py``, ``godice.py``) import their libraries inside their functions.
"""

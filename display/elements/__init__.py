"""One module per kind of screen element, each with its measure and draw; ``registry`` maps a kind to them."""

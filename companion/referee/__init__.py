"""The live referee: sensor facts and taps in, rules actions out, at the right moments."""

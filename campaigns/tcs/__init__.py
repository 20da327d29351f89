"""Site support for Tactical Combat Series operations: forms and the timeline chart."""

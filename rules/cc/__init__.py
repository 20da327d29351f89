"""Combat Commander: random scenario generator, linked campaigns, tournaments and handicaps."""

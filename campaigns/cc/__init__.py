"""Combat Commander on the site: templates over the rules/cc engines, forms and pictures."""

"""The Combat Commander battle assistant on the site: each procedure of `rules.cc.battle`
described once (its inputs, how to run it on the tracked state, its odds), so the battle
page's forms, the API's serializers and the OpenAPI schema come from the same description.
"""

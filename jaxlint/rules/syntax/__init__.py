"""JAX001, JAX002: files that do not parse, suppression comments that name no rule."""

"""Implementations of a CQL agent."""

from acme_lite.agents.jax.cql.learning import CQLLearner
from acme_lite.agents.jax.cql.networks import CQLNetworks
from acme_lite.agents.jax.cql.networks import make_networks

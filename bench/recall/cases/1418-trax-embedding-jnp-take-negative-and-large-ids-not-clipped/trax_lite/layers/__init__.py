from trax_lite.layers.core import Embedding

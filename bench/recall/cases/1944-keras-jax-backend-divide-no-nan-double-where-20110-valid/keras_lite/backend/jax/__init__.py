from keras_lite.backend.jax import numpy

from keras_lite.random.random import shuffle

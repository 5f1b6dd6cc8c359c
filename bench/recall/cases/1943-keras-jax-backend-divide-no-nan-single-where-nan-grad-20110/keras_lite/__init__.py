from keras_lite import ops

from nn_lite.functions import elu, relu

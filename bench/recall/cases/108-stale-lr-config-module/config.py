extra_learning_rate = 0.1

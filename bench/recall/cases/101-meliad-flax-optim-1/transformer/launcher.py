from transformer import training_loop


def run_training_loop():
    return training_loop.Trainer().train()

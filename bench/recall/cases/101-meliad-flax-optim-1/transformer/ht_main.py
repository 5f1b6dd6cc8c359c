from transformer import launcher

if __name__ == "__main__":
    launcher.run_training_loop()

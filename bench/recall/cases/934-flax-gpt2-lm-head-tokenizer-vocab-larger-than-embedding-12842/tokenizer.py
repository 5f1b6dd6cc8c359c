class ByteLevelTokenizer:
    """A tokenizer trained on the dataset: its vocabulary is larger than the model's."""

    def __init__(self, vocab_size):
        self.vocab_size = vocab_size

    def __call__(self, text):
        return [ord(c) % self.vocab_size for c in text]

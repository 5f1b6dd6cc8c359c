from haliax_lite import Axis, round_axis_for_partitioning

parameter_axis_mapping = {"vocab": "model", "embed": "data"}


def main(vocab_size=50257):
    Vocab = round_axis_for_partitioning(Axis("vocab", vocab_size), parameter_axis_mapping)
    return Vocab


if __name__ == "__main__":
    print(main())

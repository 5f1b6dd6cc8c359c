from custom import CustomClass


def configure(obj, use_mul):
    obj.mul = use_mul


if __name__ == "__main__":
    c = CustomClass(2, True)
    print(c.calc(3))  # 6
    configure(c, False)
    print("after mul = False:", c.calc(3))  # should be 3

import settings
from funcs import impure_func

if __name__ == "__main__":
    for y in range(3):
        settings.y = y
        print("Result:", impure_func(y))

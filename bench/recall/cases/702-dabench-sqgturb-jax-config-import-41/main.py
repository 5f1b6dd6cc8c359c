import dabench as dab

if __name__ == "__main__":
    sqg = dab.data.SQGTurb()
    print(sqg.generate().dtype)

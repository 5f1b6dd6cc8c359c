def bump(v, a, b):
    v[a:b] += 1
    return v

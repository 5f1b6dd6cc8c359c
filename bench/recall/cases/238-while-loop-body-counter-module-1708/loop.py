u = [0]


def body_fun(val):
    u[0]+=1
    return val+1


cond_fun = lambda j: j<10

from minmax_demo.opt import make_momentum

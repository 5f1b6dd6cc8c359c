from flows_lite.bijections.made import MADE, MaskedDense, get_made_mask

from .bbox import Box, overlap_slices

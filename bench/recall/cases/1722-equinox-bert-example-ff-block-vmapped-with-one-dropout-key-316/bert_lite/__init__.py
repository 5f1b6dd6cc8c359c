from bert_lite.blocks import FeedForwardBlock, TransformerLayer

__all__ = ["FeedForwardBlock", "TransformerLayer"]

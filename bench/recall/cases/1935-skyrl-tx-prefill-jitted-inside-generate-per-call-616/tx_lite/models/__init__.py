from tx_lite.models.tiny import TinyLM

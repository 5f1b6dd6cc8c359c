from .modules.llama.modelling_llama_flax import FlaxLlamaAttention, LlamaConfig

from .modules.attention_module import AttentionModule

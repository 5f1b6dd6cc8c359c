from .models import FlaxModelMixin

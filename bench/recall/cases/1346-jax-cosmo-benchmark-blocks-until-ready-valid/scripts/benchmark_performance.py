#!/usr/bin/env python3
"""Performance benchmark script for jax_cosmo angular power spectra computations."""

import inspect
import json
import os
import time
import tracemalloc
from functools import wraps

import jax
import jax.numpy as jnp
import psutil

# Force CPU mode for consistent benchmarking
jax.config.update("jax_platform_name", "cpu")

import jax_cosmo_lite.core as jc
from jax_cosmo_lite.angular_cl import angular_cl
from jax_cosmo_lite.probes import WeakLensing
from jax_cosmo_lite.redshift import smail_nz


def measure_performance(func):
    """Decorator to measure execution time and memory usage."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        # Proper JIT warmup - run multiple times to ensure compilation
        print(f"  Warming up JIT for {func.__name__}...")
        for i in range(3):
            try:
                result = func(*args, **kwargs)
                # Ensure computation is complete
                if hasattr(result, "block_until_ready"):
                    result.block_until_ready()
                break
            except Exception as e:
                if i == 2:  # Last attempt
                    print(f"  Warning: Warmup failed after 3 attempts: {e}")
                continue

        print(f"  JIT warmup complete, measuring performance...")

        # Start memory tracing
        tracemalloc.start()
        process = psutil.Process(os.getpid())
        memory_before = process.memory_info().rss / 1024 / 1024  # MB

        # Time the execution
        start_time = time.perf_counter()
        result = func(*args, **kwargs)

        # Ensure computation is complete before stopping timer
        if hasattr(result, "block_until_ready"):
            result.block_until_ready()

        end_time = time.perf_counter()

        # Measure memory
        memory_after = process.memory_info().rss / 1024 / 1024  # MB
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()

        return {
            "result": result,
            "time_seconds": end_time - start_time,
            "memory_used_mb": memory_after - memory_before,
            "peak_memory_mb": peak / 1024 / 1024,
        }

    return wrapper


def _call_angular_cl_safely(cosmo, ell, probes, npoints=None):
    """
    Call angular_cl with npoints parameter only if supported.
    This ensures backward compatibility with master branch.
    """
    # Check if npoints parameter is supported
    sig = inspect.signature(angular_cl)
    if "npoints" in sig.parameters and npoints is not None:
        return angular_cl(cosmo, ell, probes, npoints=npoints)
    else:
        return angular_cl(cosmo, ell, probes)


class AngularClBenchmark:
    """Benchmark suite for angular power spectra computations."""

    def __init__(self):
        self.cosmo = jc.Cosmology(
            Omega_c=0.25,
            Omega_b=0.05,
            Omega_k=0.0,
            h=0.7,
            sigma8=0.8,
            n_s=0.96,
            w0=-1.0,
            wa=0.0,
        )
        self.nz_source = smail_nz(1.0, 2.0, 1.0, gals_per_arcmin2=30)
        self.probe = WeakLensing([self.nz_source])

    @measure_performance
    def benchmark_lensing_cl_small(self):
        """Benchmark small-scale lensing Cl computation."""
        probe = self.probe
        ell = jnp.logspace(1, 3, 20)
        return _call_angular_cl_safely(self.cosmo, ell, [probe], npoints=64)

    @measure_performance
    def benchmark_lensing_cl_large(self):
        """Benchmark large-scale lensing Cl computation."""
        probe = self.probe
        ell = jnp.logspace(1, 3, 50)
        return _call_angular_cl_safely(self.cosmo, ell, [probe], npoints=128)

try:
    from jaxlint.cli import main
except KeyboardInterrupt:  # Ctrl-C while jaxlint is imported: the status of an interrupt
    import os
    import sys

    sys.stderr.write("interrupted\n")
    os._exit(130)

main()

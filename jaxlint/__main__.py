from jaxlint.cli import main

main()

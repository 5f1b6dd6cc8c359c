from jaxlint._entry import main

main()

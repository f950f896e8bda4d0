from wapii_core.cli import main

main()
